package memory

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

// pubData holds publications and wallet rows.
type pubData struct {
	pubs    table[publication.Publication]
	sources index // source_id → publication id
	holders table[publication.Holder]
	held    index // customer id + "\x00" + redeemable id → holder id
	// wallets: project id, customer id → the customer's holder ids, in
	// insertion order.
	wallets map[[2]string][]string
}

func newPubData() pubData {
	return pubData{pubs: newTable[publication.Publication](), sources: index{},
		holders: newTable[publication.Holder](), held: index{}, wallets: map[[2]string][]string{}}
}

func publicationField(p *publication.Publication, name string) promotype.Value { return p.Field(name) }
func publicationID(p *publication.Publication) string                          { return p.ID }
func holderField(h *publication.Holder, name string) promotype.Value           { return h.Field(name) }
func holderID(h *publication.Holder) string                                    { return h.ID }

// InsertPublication implements publication.Store.
func (s *Store) InsertPublication(ctx context.Context, p *publication.Publication) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if p.SourceID != nil {
			if _, ok := d.pubData.sources[[2]string{p.ProjectID, *p.SourceID}]; ok {
				return promotype.Duplicate("publication", "Duplicated publication exists with source_id %s", *p.SourceID)
			}
			d.pubData.sources.set(u, p.ProjectID, *p.SourceID, p.ID)
		}
		return insertNew(&d.pubData.pubs, u, p.ProjectID, p.ID, "publication", p.Clone())
	})
}

// FindPublicationBySourceID implements publication.Store.
func (s *Store) FindPublicationBySourceID(ctx context.Context, projectID, sourceID string) (out *publication.Publication, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.pubData.sources[[2]string{projectID, sourceID}]
		if !ok {
			err = promotype.NotFound("publication", sourceID)
			return
		}
		out, err = getClone(&d.pubData.pubs, projectID, id, "publication", (*publication.Publication).Clone)
	})
	return out, err
}

// FindCampaignPublication implements publication.Store.
func (s *Store) FindCampaignPublication(ctx context.Context, projectID, customerID, campaignID string) (out *publication.Publication, err error) {
	s.read(ctx, func(d *data) {
		var best *publication.Publication
		for _, p := range d.pubData.pubs.rows[projectID] {
			if p.CustomerID != customerID || p.CampaignID == nil || *p.CampaignID != campaignID {
				continue
			}
			if best == nil || p.CreatedAt.After(best.CreatedAt.Time) || (p.CreatedAt.Equal(best.CreatedAt) && p.ID > best.ID) {
				best = p
			}
		}
		if best == nil {
			err = promotype.NotFound("publication", campaignID)
			return
		}
		out = best.Clone()
	})
	return out, err
}

// LockCustomerPublications implements publication.Store: a transaction
// holds the store's lock already.
func (s *Store) LockCustomerPublications(context.Context, string, string) error { return nil }

// ListPublications implements publication.Store.
func (s *Store) ListPublications(ctx context.Context, projectID string, q promotype.Query) (out []*publication.Publication, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.pubData.pubs.rows[projectID], q, publicationField, publicationID, nil, (*publication.Publication).Clone)
	})
	return out, total, nil
}

// InsertHolder implements publication.Store.
func (s *Store) InsertHolder(ctx context.Context, h *publication.Holder) error {
	return s.write(ctx, func(d *data, u *undo) error {
		key := h.CustomerID + "\x00" + h.RedeemableID
		if _, ok := d.pubData.held[[2]string{h.ProjectID, key}]; ok {
			return nil
		}
		if err := insertNew(&d.pubData.holders, u, h.ProjectID, h.ID, "holder", h.Clone()); err != nil {
			return err
		}
		d.pubData.held.set(u, h.ProjectID, key, h.ID)
		wk := [2]string{h.ProjectID, h.CustomerID}
		old := d.pubData.wallets[wk]
		d.pubData.wallets[wk] = append(old[:len(old):len(old)], h.ID)
		u.push(func() { d.pubData.wallets[wk] = old })
		return nil
	})
}

// ListHolders implements publication.Store.
func (s *Store) ListHolders(ctx context.Context, projectID, customerID, afterID string, q promotype.Query) (out []*publication.Holder, total int, err error) {
	s.read(ctx, func(d *data) {
		q.Must = append(slices.Clip(q.Must), promotype.Condition{Field: "customer_id", Op: promotype.OpIs, Values: []string{customerID}})
		all := q
		all.Limit, all.Offset = len(d.pubData.holders.rows[projectID]), 0
		rows, n := list(d.pubData.holders.rows[projectID], all, holderField, holderID, nil, func(h *publication.Holder) *publication.Holder { return h })
		total = n
		out = make([]*publication.Holder, 0, min(q.Limit, len(rows)))
		for _, h := range rows {
			if afterID != "" && ((!q.Desc && h.ID <= afterID) || (q.Desc && h.ID >= afterID)) {
				continue
			}
			if len(out) == q.Limit {
				break
			}
			out = append(out, h.Clone())
		}
	})
	return out, total, nil
}

// PublishVoucher implements publication.Store.
func (s *Store) PublishVoucher(ctx context.Context, projectID, id, customerID string, at promotype.Time) (out *voucher.Voucher, held bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		v, r, ok := p.live(id)
		if !ok {
			return promotype.NotFound("voucher", id)
		}
		if v == nil {
			v = p.move(u, r)
		}
		if v.HolderID != nil && *v.HolderID != customerID {
			held, out = true, v.Clone()
			return nil
		}
		out = published(v, customerID, at)
		p.putRow(u, out)
		return nil
	})
	return out, held, err
}

// published is a copy of v given to customerID at at.
func published(v *voucher.Voucher, customerID string, at promotype.Time) *voucher.Voucher {
	c := v.Clone()
	c.HolderID = promotype.Ptr(customerID)
	c.PublishCount++
	c.UpdatedAt = at.Ptr()
	return c
}

// ClaimCampaignVouchers implements publication.Store: the store's lock
// serializes claims, so it reads the free vouchers (every voucher of the
// campaign: a claim costs a pass over them) and gives the first n.
func (s *Store) ClaimCampaignVouchers(ctx context.Context, projectID, campaignID, customerID string, n int, at promotype.Time) (out []*voucher.Voucher, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		type cand struct {
			id string
			r  vref
		}
		var cs []cand
		keep := func(c cand) { // the n lowest ids, sorted
			i, _ := slices.BinarySearchFunc(cs, c.id, func(a cand, id string) int { return strings.Compare(a.id, id) })
			if i >= n {
				return
			}
			cs = slices.Insert(cs, i, c)
			if len(cs) > n {
				cs = cs[:n]
			}
		}
		for id, v := range p.rows {
			if v.BinnedAt == nil && v.CampaignID != nil && *v.CampaignID == campaignID && v.Active && v.HolderID == nil {
				keep(cand{id: id, r: vref{-1, -1}})
			}
		}
		for k, sl := range p.slabs {
			if sl.campaignID != campaignID || !sl.template.Active || sl.template.HolderID != nil {
				continue
			}
			for i, st := range sl.state {
				if st == rowLive {
					keep(cand{id: sl.id(i), r: vref{int32(k), int32(i)}})
				}
			}
		}
		for _, c := range cs {
			v := p.rows[c.id]
			if c.r.slab >= 0 {
				v = p.move(u, c.r)
			}
			pv := published(v, customerID, at)
			p.putRow(u, pv)
			out = append(out, pv.Clone())
		}
		return nil
	})
	return out, err
}
