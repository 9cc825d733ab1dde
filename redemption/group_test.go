package redemption

import (
	"testing"

	"github.com/promoengine/promo/rule"
)

// TestWriteLimited: a write is kept out of group transactions when a rule
// of a redeemable it applies limits a counter, not when the limit belongs
// to a redeemable it does not apply, nor when its rules limit nothing.
func TestWriteLimited(t *testing.T) {
	t.Parallel()
	limiting := &Candidate{Programs: []*rule.Program{{}, {Limits: []rule.Limit{{Max: 3}}}}}
	plain := &Candidate{Programs: []*rule.Program{{}}}
	for _, tc := range []struct {
		name  string
		steps []Step
		want  bool
	}{
		{"no rules", []Step{{Status: Applicable, Candidate: &Candidate{}}}, false},
		{"rules without limits", []Step{{Status: Applicable, Candidate: plain}}, false},
		{"a limit on an applied redeemable", []Step{{Status: Applicable, Candidate: plain}, {Status: Applicable, Candidate: limiting}}, true},
		{"a limit on a skipped redeemable", []Step{{Status: Applicable, Candidate: plain}, {Status: Skipped, Candidate: limiting}}, false},
	} {
		w := &write{out: &Outcome{Steps: tc.steps}}
		if got := w.limited(); got != tc.want {
			t.Errorf("%s: limited() = %t, want %t", tc.name, got, tc.want)
		}
	}
}
