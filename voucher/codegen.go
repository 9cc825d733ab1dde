package voucher

import (
	crand "crypto/rand"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"unicode/utf8"

	"github.com/promoengine/promo/campaign"
)

// SafetyFactor is the margin a code config must leave: its code space must
// hold at least SafetyFactor times the number of codes asked for, so that a
// random code collides with one already made at most 1 time in
// SafetyFactor and regeneration always ends quickly.
const SafetyFactor = 10

// Generator makes random codes from a code config: prefix, then the pattern
// with each '#' replaced by a random character of the charset, then
// postfix. Characters are drawn uniformly (no modulo bias) from a ChaCha8
// stream seeded from crypto/rand. Append does not allocate beyond growing
// its destination. A Generator is not safe for concurrent use.
type Generator struct {
	prefix, pattern, postfix string
	ascii                    []byte   // the charset when every character is ASCII
	runes                    []string // otherwise, each character's UTF-8 bytes
	n, thresh                uint64   // charset size; rejection threshold of Lemire's method
	length                   int      // number of '#'
	rng                      *rand.ChaCha8
}

// NewGenerator returns a generator for cfg (normalized first; errors are
// 400 invalid_code_config). Repeated charset characters count once.
func NewGenerator(cfg campaign.CodeConfig) (*Generator, error) {
	norm, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	g := &Generator{pattern: *norm.Pattern, length: *norm.Length}
	if norm.Prefix != nil {
		g.prefix = *norm.Prefix
	}
	if norm.Postfix != nil {
		g.postfix = *norm.Postfix
	}
	seen := map[rune]bool{}
	ascii := true
	for _, r := range *norm.Charset {
		if seen[r] {
			continue
		}
		seen[r] = true
		g.runes = append(g.runes, string(r))
		ascii = ascii && r < utf8.RuneSelf
	}
	if ascii {
		g.ascii = make([]byte, len(g.runes))
		for i, r := range g.runes {
			g.ascii[i] = r[0]
		}
	}
	g.n = uint64(len(g.runes))
	g.thresh = -g.n % g.n
	var seed [32]byte
	_, _ = crand.Read(seed[:])
	g.rng = rand.NewChaCha8(seed)
	return g, nil
}

// Seed makes the generator deterministic (tests and benchmarks only).
func (g *Generator) Seed(seed [32]byte) { g.rng = rand.NewChaCha8(seed) }

// Space is the number of distinct codes the config can make (+Inf beyond
// float64).
func (g *Generator) Space() float64 { return math.Pow(float64(g.n), float64(g.length)) }

// CheckCapacity refuses (400 invalid_code_config) a config whose code space
// cannot hold count codes with the SafetyFactor margin.
func (g *Generator) CheckCapacity(count int64) error {
	if count <= 0 {
		return nil
	}
	if space := g.Space(); space < float64(count)*SafetyFactor {
		return campaign.InvalidCodeConfig("The code config makes at most %s distinct codes: too few for %d vouchers "+
			"(the code space must hold %d times the number of codes; use a longer pattern or a larger charset)",
			strconv.FormatFloat(space, 'f', -1, 64), count, SafetyFactor)
	}
	return nil
}

// index draws a uniform number in [0, n) (Lemire's multiply-and-reject).
func (g *Generator) index() uint64 {
	for {
		hi, lo := bits.Mul64(g.rng.Uint64(), g.n)
		if lo >= g.thresh {
			return hi
		}
	}
}

// Append appends one random code to dst.
func (g *Generator) Append(dst []byte) []byte {
	dst = append(dst, g.prefix...)
	p := g.pattern
	for i := 0; i < len(p); i++ {
		if p[i] != '#' {
			dst = append(dst, p[i])
			continue
		}
		if g.ascii != nil {
			dst = append(dst, g.ascii[g.index()])
		} else {
			dst = append(dst, g.runes[g.index()]...)
		}
	}
	return append(dst, g.postfix...)
}

// Code returns one random code.
func (g *Generator) Code() string { return string(g.Append(nil)) }
