package rule

import "slices"

// Index finds the entries (tiers) whose anchors a request satisfies, so that
// validation visits only entries that can pass: its cost follows the facts
// of the request and the entries they touch, not the number of entries.
type Index struct {
	byFact map[string][]int32
	always []int32 // entries without an anchor
	size   int
}

// NewIndex indexes entries by their anchors. Entry i offers alternatives[i]
// (any one of which is necessary for it to pass; none = always a
// candidate); the index keys it by the alternative whose facts the fewest
// entries offer, so a fact every entry shares (one customer segment) does
// not make every entry a candidate when a rarer one (a product) exists.
func NewIndex(alternatives [][][]string) *Index {
	freq := map[string]int{}
	for _, alts := range alternatives {
		for _, a := range alts {
			for _, f := range a {
				freq[f]++
			}
		}
	}
	anchors := make([][]string, len(alternatives))
	for i, alts := range alternatives {
		best := -1
		for _, a := range alts {
			cost := 0
			for _, f := range a {
				cost += freq[f]
			}
			if best < 0 || cost < best {
				best, anchors[i] = cost, a
			}
		}
	}
	ix := &Index{byFact: make(map[string][]int32), size: len(anchors)}
	for i, a := range anchors {
		if a == nil {
			ix.always = append(ix.always, int32(i))
			continue
		}
		seen := a[:0:0]
		for _, f := range a {
			if slices.Contains(seen, f) {
				continue
			}
			seen = append(seen, f)
			ix.byFact[f] = append(ix.byFact[f], int32(i))
		}
	}
	return ix
}

// Len is the number of entries indexed.
func (ix *Index) Len() int { return ix.size }

// Candidates appends to dst, in ascending order and without repeats, the
// entries that facts may satisfy.
func (ix *Index) Candidates(facts []string, dst []int32) []int32 {
	dst = append(dst, ix.always...)
	for _, f := range facts {
		dst = append(dst, ix.byFact[f]...)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}
