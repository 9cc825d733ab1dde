package voucher

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

func ptr[T any](v T) *T { return &v }

// codeRE is the regular expression every code of a normalized config matches.
func codeRE(cfg campaign.CodeConfig) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	if cfg.Prefix != nil {
		b.WriteString(regexp.QuoteMeta(*cfg.Prefix))
	}
	// QuoteMeta leaves '-' alone, which inside a class makes a range
	// ("0-0" would match only '0'): spell every character as \x{...}.
	var class strings.Builder
	class.WriteString("[")
	for _, r := range *cfg.Charset {
		fmt.Fprintf(&class, `\x{%x}`, r)
	}
	class.WriteString("]")
	for _, r := range *cfg.Pattern {
		if r == '#' {
			b.WriteString(class.String())
		} else {
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if cfg.Postfix != nil {
		b.WriteString(regexp.QuoteMeta(*cfg.Postfix))
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func TestGeneratorFollowsConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []campaign.CodeConfig{
		{},
		{Length: ptr(12)},
		{Pattern: ptr("10OFF-#######"), Length: ptr(3)},
		{Prefix: ptr("New-"), Pattern: ptr("GIFT-CARD-##########"), Postfix: ptr("0")},
		{Prefix: ptr("Your-applicable-"), Pattern: ptr("#"), Charset: ptr("0123456789")},
		{Pattern: ptr("ŻÓŁ-###-ąę"), Charset: ptr("ążźćńół")},
		{Pattern: ptr("##"), Charset: ptr("aaaab")}, // repeats count once
	} {
		g, err := NewGenerator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		norm, _ := cfg.Normalize()
		re := codeRE(norm)
		for range 200 {
			if c := g.Code(); !re.MatchString(c) {
				t.Errorf("%+v made %q", cfg, c)
			}
		}
	}
}

// The draw is uniform: every character of the charset turns up about as
// often in a long run.
func TestGeneratorIsUniform(t *testing.T) {
	t.Parallel()
	g, err := NewGenerator(campaign.CodeConfig{Pattern: ptr("#"), Charset: ptr("abc")})
	if err != nil {
		t.Fatal(err)
	}
	g.Seed([32]byte{1})
	counts := map[string]int{}
	const n = 30_000
	for range n {
		counts[g.Code()]++
	}
	for _, c := range []string{"a", "b", "c"} {
		if got := counts[c]; got < n/3-600 || got > n/3+600 {
			t.Errorf("%s drawn %d times of %d", c, got, n)
		}
	}
}

func TestCheckCapacity(t *testing.T) {
	t.Parallel()
	g, _ := NewGenerator(campaign.CodeConfig{Pattern: ptr("##"), Charset: ptr("0123456789")})
	if err := g.CheckCapacity(10); err != nil {
		t.Errorf("100 codes for 10: %v", err)
	}
	err := g.CheckCapacity(11)
	var pe *promotype.Error
	if !errors.As(err, &pe) || pe.Key != "invalid_code_config" || pe.Code != 400 {
		t.Errorf("100 codes for 11: %v", err)
	}
	big, _ := NewGenerator(campaign.CodeConfig{Length: ptr(200)})
	if err := big.CheckCapacity(10_000_000); err != nil {
		t.Errorf("huge space: %v", err)
	}
}

func TestIDMaker(t *testing.T) {
	t.Parallel()
	m := newIDMaker(promotype.RandomIDs{})
	m.startChunk(1000)
	var prev string
	seen := map[string]bool{}
	for range 1000 {
		id := string(m.appendID(nil))
		if len(id) != 2+6+4+16 || !strings.HasPrefix(id, "v_") || id <= prev || seen[id] {
			t.Fatalf("id %q after %q", id, prev)
		}
		seen[id], prev = true, id
	}
	seq := newIDMaker(&promotype.SequentialIDs{})
	if id := string(seq.appendID(nil)); id != "v_00000000000000000001" {
		t.Errorf("sequential id %q", id)
	}
}

// FuzzCodePattern: any code config either is refused with 400
// invalid_code_config or makes codes that follow it.
func FuzzCodePattern(f *testing.F) {
	for _, s := range [][4]string{{"", "", "", ""}, {"##-##", "ABC", "P", "S"}, {"#", "0", "", ""}, {"no hash", "", "", ""},
		{"ŻÓŁ#", "ąę", "x", ""}, {"#\x00#", "\xff", "", ""}, {"####", "#", "#", "#"},
		{"#", "0-0", "0", "0"}, {"#", "a-z^]\\", "", ""}} {
		f.Add(s[0], s[1], s[2], s[3], 5)
	}
	f.Fuzz(func(t *testing.T, pattern, charset, prefix, postfix string, length int) {
		cfg := campaign.CodeConfig{Length: &length}
		if pattern != "" {
			cfg.Pattern = &pattern
		}
		if charset != "" {
			cfg.Charset = &charset
		}
		if prefix != "" {
			cfg.Prefix = &prefix
		}
		if postfix != "" {
			cfg.Postfix = &postfix
		}
		g, err := NewGenerator(cfg)
		if err != nil {
			var pe *promotype.Error
			if !errors.As(err, &pe) || pe.Key != "invalid_code_config" {
				t.Fatalf("error %v", err)
			}
			return
		}
		norm, err := cfg.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		_ = g.CheckCapacity(1000)
		re := codeRE(norm)
		for range 10 {
			c := g.Code()
			if !utf8.ValidString(c) || !re.MatchString(c) {
				t.Fatalf("config %+v made %q", norm, c)
			}
		}
	})
}
