package promotion

import "slices"

// Candidates returns the tiers a request may qualify for, newest first:
// those the index finds for the request's facts (every tier under
// AudienceOnly, where item and order anchors do not bind), open at req.Now
// and kept by req.Only. No rule is evaluated: the caller evaluates each
// candidate as a validation would.
func (s *Snapshot) Candidates(req Request) []*Tier {
	var idx []int32
	if req.AudienceOnly {
		idx = make([]int32, len(s.tiers))
		for i := range idx {
			idx[i] = int32(i)
		}
	} else {
		in := ruleInput(req.Order, req.Customer, req.Redemption, req.Segments, s.collections)
		idx = s.index.Candidates(in.Facts(nil), nil)
		releaseInput(in)
	}
	out := make([]*Tier, 0, len(idx))
	for _, i := range idx {
		t := &s.tiers[i]
		if (req.Only == nil || req.Only(t)) && s.Open(t, req.Now) {
			out = append(out, t)
		}
	}
	return slices.Clip(out)
}
