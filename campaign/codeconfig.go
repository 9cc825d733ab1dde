package campaign

import (
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// Code generation defaults and limits, as the hosted service has them.
const (
	// Alphanumeric is the default charset.
	Alphanumeric = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	// DefaultCodeLength is the number of random characters when neither
	// pattern nor length is given.
	DefaultCodeLength = 8
	// MaxCodeLength bounds a generated code: prefix, pattern and postfix together.
	MaxCodeLength = 200
	// MaxCharsetLength bounds the charset.
	MaxCharsetLength = 1000
)

// InvalidCodeConfig is the 400 invalid_code_config error.
func InvalidCodeConfig(format string, args ...any) *promotype.Error {
	return promotype.BadRequest("invalid_code_config", "Invalid code config", format, args...)
}

// Normalize checks c and returns it in its stored form: a pattern (given,
// or Length '#' characters, DefaultCodeLength by default; a pattern wins
// over a length), Length the number of '#' in it, and a charset
// (Alphanumeric by default). Prefix and postfix are kept as given.
func (c CodeConfig) Normalize() (CodeConfig, error) {
	out := CodeConfig{Prefix: promotype.ClonePtr(c.Prefix), Postfix: promotype.ClonePtr(c.Postfix)}
	charset := Alphanumeric
	if c.Charset != nil {
		charset = *c.Charset
	}
	switch n := utf8.RuneCountInString(charset); {
	case !utf8.ValidString(charset) || n == 0:
		return out, InvalidCodeConfig("Property .code_config.charset must hold at least one character")
	case n > MaxCharsetLength:
		return out, InvalidCodeConfig("Property .code_config.charset must NOT have more than %d characters", MaxCharsetLength)
	}
	if hasControl(charset) {
		return out, InvalidCodeConfig("Property .code_config.charset must not hold control characters")
	}
	out.Charset = &charset
	var pattern string
	switch {
	case c.Pattern != nil:
		pattern = *c.Pattern
		if !strings.Contains(pattern, "#") {
			return out, InvalidCodeConfig("Property .code_config.pattern must hold at least one '#' (a random character)")
		}
		if !utf8.ValidString(pattern) {
			return out, InvalidCodeConfig("Property .code_config.pattern must be UTF-8 text")
		}
		if hasControl(pattern) {
			return out, InvalidCodeConfig("Property .code_config.pattern must not hold control characters")
		}
	case c.Length != nil:
		if *c.Length < 1 || *c.Length > MaxCodeLength {
			return out, InvalidCodeConfig("Property .code_config.length must be between 1 and %d", MaxCodeLength)
		}
		pattern = strings.Repeat("#", *c.Length)
	default:
		pattern = strings.Repeat("#", DefaultCodeLength)
	}
	out.Pattern = &pattern
	length := strings.Count(pattern, "#")
	out.Length = &length
	for _, s := range []*string{c.Prefix, c.Postfix} {
		if s != nil && !utf8.ValidString(*s) {
			return out, InvalidCodeConfig("Property .code_config.prefix and .postfix must be UTF-8 text")
		}
	}
	for _, f := range []struct {
		name string
		s    *string
	}{{"prefix", c.Prefix}, {"postfix", c.Postfix}} {
		if f.s != nil && hasControl(*f.s) {
			return out, InvalidCodeConfig("Property .code_config.%s must not hold control characters", f.name)
		}
	}
	total := utf8.RuneCountInString(pattern)
	if c.Prefix != nil {
		total += utf8.RuneCountInString(*c.Prefix)
	}
	if c.Postfix != nil {
		total += utf8.RuneCountInString(*c.Postfix)
	}
	if total > MaxCodeLength {
		return out, InvalidCodeConfig("A generated code (prefix, pattern and postfix) must NOT have more than %d characters", MaxCodeLength)
	}
	return out, nil
}

// hasControl reports whether s holds a control character (U+0000–U+001F or
// U+007F), which an explicit code may not hold either (voucher.CheckCode):
// generated codes must be codes a client could also have sent.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}
