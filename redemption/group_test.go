package redemption

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
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

// spendsStore records SpendVouchers calls and refuses refuse's voucher.
type spendsStore struct {
	RedeemStore // nil: only SpendVouchers is called
	refuse      string
	calls       [][]string // the voucher ids of each call, with its project first
}

func (s *spendsStore) SpendVouchers(_ context.Context, projectID string, ss []VoucherSpend) ([]*voucher.Voucher, error) {
	call := []string{projectID}
	var spent []*voucher.Voucher
	for _, sp := range ss {
		call = append(call, sp.VoucherID)
	}
	s.calls = append(s.calls, call)
	for _, sp := range ss {
		if sp.VoucherID == s.refuse {
			return spent, &LimitError{Limit: LimitQuantity, Key: sp.VoucherID}
		}
		spent = append(spent, &voucher.Voucher{ID: sp.VoucherID})
	}
	return spent, nil
}

// TestSpendTogether: a group's spends go in one call per project, in the
// batch's order; each redemption is staged the voucher its spend left; a
// refused spend names its redemption; a redemption that spends through a
// session leaves every spend to finish.
func TestSpendTogether(t *testing.T) {
	t.Parallel()
	newJob := func(projectID, voucherID, session string) *job {
		var in ValidationParams
		if session != "" {
			in.Session = &SessionParams{Key: session}
		}
		row := &Redemption{Ledger: Ledger{VoucherID: voucherID, Spend: Spend{Quantity: 1}}}
		return &job{w: &write{projectID: projectID, in: in, spends: []pendingSpend{{row: row}},
			stage: &staged{counted: map[string]int64{}}}}
	}
	for _, tc := range []struct {
		name      string
		batch     []*job
		refuse    string
		wantCalls [][]string
		wantAt    int
		wantSpent []string // the voucher staged on each job, "" for none
	}{
		{"one project", []*job{newJob("p1", "v1", ""), newJob("p1", "v2", "")}, "",
			[][]string{{"p1", "v1", "v2"}}, -1, []string{"v1", "v2"}},
		{"two projects", []*job{newJob("p1", "v1", ""), newJob("p2", "v0", ""), newJob("p2", "v3", "")}, "",
			[][]string{{"p1", "v1"}, {"p2", "v0", "v3"}}, -1, []string{"v1", "v0", "v3"}},
		{"a refused spend in the second project", []*job{newJob("p1", "v1", ""), newJob("p2", "v2", ""), newJob("p2", "v3", "")}, "v3",
			[][]string{{"p1", "v1"}, {"p2", "v2", "v3"}}, 2, []string{"v1", "v2", ""}},
		{"a session's spend", []*job{newJob("p1", "v1", ""), newJob("p1", "v2", "k1")}, "",
			nil, -1, []string{"", ""}},
	} {
		st := &spendsStore{refuse: tc.refuse}
		at, err := spendTogether(context.Background(), st, tc.batch)
		if (err != nil) != (tc.wantAt >= 0) || at != tc.wantAt {
			t.Errorf("%s: spendTogether = %d, %v; want the refusal at %d", tc.name, at, err, tc.wantAt)
		}
		if d := cmp.Diff(tc.wantCalls, st.calls); d != "" {
			t.Errorf("%s: calls (-want +got):\n%s", tc.name, d)
		}
		var spent []string
		for _, j := range tc.batch {
			id := ""
			if v := j.w.stage.spent; v != nil {
				id = v.ID
			}
			spent = append(spent, id)
		}
		if d := cmp.Diff(tc.wantSpent, spent); d != "" {
			t.Errorf("%s: staged vouchers (-want +got):\n%s", tc.name, d)
		}
	}
}
