package promotion

import (
	"slices"
	"time"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Snapshot is a project's tiers compiled for validation. It is immutable
// and safe for concurrent use.
type Snapshot struct {
	tiers   []Tier // newest created first (ties by id)
	byID    map[string]int
	index   *rule.Index
	catalog discount.Catalog
	loc     *time.Location

	collections *catalog.Collections // the project's product collections
	// segments reports whether a tier's rules read the customer's
	// segments (Request.Segments).
	segments bool
}

// NewSnapshot compiles tiers into a snapshot. cat resolves the products a
// unit discount gives; loc is the project's time zone.
func NewSnapshot(tiers []Tier, cat discount.Catalog, loc *time.Location) *Snapshot {
	ts := slices.Clone(tiers)
	slices.SortStableFunc(ts, func(a, b Tier) int {
		if c := b.CreatedAt.Compare(a.CreatedAt.Time); c != 0 {
			return c
		}
		switch {
		case a.ID > b.ID:
			return -1
		case a.ID < b.ID:
			return 1
		}
		return 0
	})
	alts := make([][][]string, len(ts))
	for i := range ts {
		alts[i] = rule.Anchors(ts[i].Programs...)
	}
	if loc == nil {
		loc = time.UTC
	}
	byID := make(map[string]int, len(ts))
	segments := false
	for i := range ts {
		byID[ts[i].ID] = i
		for _, p := range ts[i].Programs {
			segments = segments || (p != nil && p.Segments)
		}
	}
	return &Snapshot{tiers: ts, byID: byID, index: rule.NewIndex(alts), catalog: cat, loc: loc, segments: segments}
}

// NeedsSegments reports whether a tier's rules read the customer's
// segments: a request then carries them (Request.Segments).
func (s *Snapshot) NeedsSegments() bool { return s.segments }

// Len is the number of tiers in the snapshot.
func (s *Snapshot) Len() int { return len(s.tiers) }

// Tier returns the tier with id, or nil.
func (s *Snapshot) Tier(id string) *Tier {
	if i, ok := s.byID[id]; ok {
		return &s.tiers[i]
	}
	return nil
}

// Request is one validation: the calculated original order, the
// customer's and the request's metadata, and when it happens.
type Request struct {
	Order      *order.Order
	Customer   promotype.Metadata
	Redemption promotype.Metadata
	// Segments are the ids of the customer's segments, ascending (read
	// when NeedsSegments).
	Segments []string
	Now      time.Time
	// AudienceOnly checks only customer rules (query audienceRulesOnly).
	AudienceOnly bool
	// Only, when not nil, keeps the tiers it holds (query filters).
	Only func(*Tier) bool
}

// Result is one valid tier with the order it prices: a View of the
// request's order (what the tier changed in it).
type Result struct {
	Tier           *Tier
	Order          order.View
	DiscountAmount int64
}

// Validate returns the valid tiers, newest first, each with the order it
// prices. Only the tiers the index finds for the request are visited.
func (s *Snapshot) Validate(req Request) []Result {
	in := ruleInput(req.Order, req.Customer, req.Redemption, req.Segments, s.collections)
	defer releaseInput(in)
	cands := s.index.Candidates(in.Facts(nil), nil)
	out := make([]Result, 0, len(cands))
	var ws *order.Workspace // made for the first tier that gets priced
	var lines *discount.Lines
	for _, i := range cands {
		t := &s.tiers[i]
		if req.Only != nil && !req.Only(t) {
			continue
		}
		if !s.Open(t, req.Now) || !s.rulesPass(t, req, in, false) {
			continue
		}
		if ws == nil {
			ws, lines = order.NewWorkspace(req.Order, len(cands)), discount.IndexLines(req.Order)
		}
		if r, ok := s.price(t, req, in, ws, lines); ok {
			out = append(out, r)
		}
	}
	if ws != nil {
		ws.Close()
	}
	return out
}

// Open reports whether t may be used at now: its campaign and itself
// active, and both inside their time windows (a tier without its own
// validity inherits its campaign's, which applies anyway).
func (s *Snapshot) Open(t *Tier, now time.Time) bool {
	return t.Active && t.Campaign.Active && t.Campaign.Validity.OpenAt(now, s.loc) &&
		(t.Validity.IsZero() || t.Validity.OpenAt(now, s.loc))
}

// price prices tier t, whose other rules passed, in the workspace over
// the request's order, and checks its rules on the total after it.
func (s *Snapshot) price(t *Tier, req Request, in *rule.Input, ws *order.Workspace, lines *discount.Lines) (Result, bool) {
	o := ws.Order()
	got, err := discount.ApplyWith(o, t.Discount, t.Applicability, s.catalog, lines, t.facts(req))
	if err != nil {
		ws.Reset()
		return Result{}, false
	}
	if s.needsTotal(t) { // order.total_amount reads the total after this tier
		total := *in
		total.TotalAmount = o.TotalAmount
		if !s.rulesPass(t, req, &total, true) {
			ws.Reset()
			return Result{}, false
		}
	}
	return Result{Tier: t, Order: ws.View(), DiscountAmount: got}, true
}

func (s *Snapshot) needsTotal(t *Tier) bool {
	for _, p := range t.Programs {
		if p.NeedsTotal {
			return true
		}
	}
	return false
}

// rulesPass evaluates t's programs that do not read order.total_amount, or
// with totals only those that do (after the tier is priced).
func (s *Snapshot) rulesPass(t *Tier, req Request, in *rule.Input, totals bool) bool {
	for _, p := range t.Programs {
		if p.NeedsTotal != totals { // total-reading programs wait for the price
			continue
		}
		var ok bool
		if req.AudienceOnly {
			ok, _ = p.EvalAudience(in)
		} else {
			ok, _ = p.Eval(in)
		}
		if !ok {
			return false
		}
	}
	return true
}
