package rule

import (
	"context"
	"slices"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/discount"
)

// CollectionReader is what rules read of the catalog: a rule may name only
// product collections that exist.
type CollectionReader interface {
	GetCollection(ctx context.Context, projectID, id string) (*catalog.Collection, error)
}

// CollectionIDs returns the ids of the product collections the program's
// item conditions name (sub-rules included), each once, sorted.
func (p *Program) CollectionIDs() []string {
	var out []string
	var walk func(p *Program)
	walk = func(p *Program) {
		if p == nil {
			return
		}
		for i := range p.rules {
			for _, ref := range p.rules[i].items {
				if ref.Object == objectCollection {
					out = append(out, ref.ID)
				}
			}
			walk(p.rules[i].sub)
		}
	}
	walk(p)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkCollections checks that every product collection r names (in its
// conditions and its applicable_to) exists: 404 not_found otherwise.
func checkCollections(ctx context.Context, st CollectionReader, r *ValidationRule) error {
	prog, err := r.Program()
	if err != nil {
		return err
	}
	ids := prog.CollectionIDs()
	for _, ts := range [][]discount.Target{r.ApplicableTo.Included, r.ApplicableTo.Excluded} {
		for _, t := range ts {
			if t.Object == discount.ObjectCollection && !slices.Contains(ids, t.ID) {
				ids = append(ids, t.ID)
			}
		}
	}
	for _, id := range ids {
		if _, err := st.GetCollection(ctx, r.ProjectID, id); err != nil {
			return err
		}
	}
	return nil
}

// checkNamed checks that the product collections and the segments r
// names exist: 404 not_found otherwise.
func checkNamed(ctx context.Context, st Store, r *ValidationRule) error {
	if err := checkCollections(ctx, st, r); err != nil {
		return err
	}
	prog, err := r.Program()
	if err != nil {
		return err
	}
	for _, id := range prog.SegmentIDs() {
		if _, err := st.GetSegment(ctx, r.ProjectID, id); err != nil {
			return err
		}
	}
	return nil
}

// SegmentIDs returns the ids of the segments the program's customer.segment
// conditions name, each once, sorted.
func (p *Program) SegmentIDs() []string {
	if p == nil {
		return nil
	}
	var out []string
	for i := range p.rules {
		if p.rules[i].spec.target == tCustomerSegment {
			for _, c := range p.rules[i].conds {
				out = append(out, c.strs...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
