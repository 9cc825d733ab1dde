package promo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// The inputs (payload) and checkpoints (state) of the async actions. A
// checkpoint is saved with each chunk, in the chunk's transaction, so a
// resumed action goes on exactly where the last committed chunk ended.

type generatePayload struct {
	CampaignID string                  `json:"campaign_id"`
	Count      int64                   `json:"count"`
	Params     *voucher.CampaignParams `json:"params,omitempty"` // vouchers added to an existing campaign
}

type generateState struct {
	Done    int64 `json:"done"`
	Stalled int   `json:"stalled"` // chunks in a row that stored nothing (every code taken)
	Started bool  `json:"started,omitempty"`
}

type updatePayload struct {
	CampaignID string `json:"campaign_id"`
	Revision   int    `json:"revision"`
	Count      int64  `json:"count"`
}

type cursorState struct {
	After string `json:"after"`
	Done  int64  `json:"done"`
}

type deletePayload struct {
	CampaignID string `json:"campaign_id"`
	Force      bool   `json:"force"`
	Count      int64  `json:"count"`
}

type importPayload struct {
	CampaignID string               `json:"campaign_id"`
	Items      []voucher.ImportItem `json:"items"`
}

type importState struct {
	Next   int                     `json:"next"`
	Done   int64                   `json:"done"`
	Failed []project.ImportFailure `json:"failed"`
}

// maxStalledChunks is how many chunks in a row may store no voucher (every
// code taken) before a generation gives up: the code space is used up.
const maxStalledChunks = 50

// decode reads an action's payload and state.
func decode(a *project.AsyncAction, payload, state any) error {
	if err := json.Unmarshal(a.Payload, payload); err != nil {
		return fmt.Errorf("decode payload of %s: %w", a.ID, err)
	}
	if len(a.State) > 0 && state != nil {
		if err := json.Unmarshal(a.State, state); err != nil {
			return fmt.Errorf("decode state of %s: %w", a.ID, err)
		}
	}
	return nil
}

// generate is CAMPAIGN.VOUCHERS_GENERATE: Count vouchers in chunks; codes
// taken (in the project or by the chunk itself) are made again, never
// fatal, until the code space is used up. The campaign's vouchers_count
// takes the vouchers made when the action ends (DONE or FAILED).
func (w *worker) generate(ctx context.Context, a *project.AsyncAction) error {
	var p generatePayload
	var st generateState
	if err := decode(a, &p, &st); err != nil {
		return err
	}
	e := w.e
	c, err := e.store.GetCampaign(ctx, a.ProjectID, p.CampaignID)
	if errors.Is(err, promotype.ErrNotFound) {
		return w.fail(ctx, a, "The campaign was deleted before its vouchers were generated.", map[string]any{"done_count": st.Done})
	}
	if err != nil {
		return err
	}
	var params voucher.CampaignParams
	if p.Params != nil {
		params = *p.Params
	}
	tmpl, gen, err := e.promos.vouchers.GenerationFor(ctx, e.store, c, params)
	if err != nil {
		return err
	}
	if !st.Started {
		if err := w.generationStarted(ctx, a, p, &st); err != nil {
			return err
		}
	}
	g := e.promos.vouchers.NewGeneration(tmpl, gen)
	for st.Done < p.Count {
		if w.stopping() {
			return errStopping
		}
		n := int(min(int64(w.cfg.ChunkSize), p.Count-st.Done))
		batch := g.Next(n, w.now())
		next := st
		err := w.bulkStep(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
			rejected, err := tx.InsertBatch(ctx, batch)
			if err != nil {
				return err
			}
			stored := int64(n - len(rejected))
			if stored > 0 {
				next.Stalled = 0
			} else {
				next.Stalled++
			}
			next.Done += stored
			cur.Progress = progress(next.Done, p.Count)
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		st = next
		if st.Stalled >= maxStalledChunks {
			return w.fail(ctx, a, fmt.Sprintf("Generated %d of %d vouchers: no free code left in the code config's code space.", st.Done, p.Count),
				map[string]any{"done_count": st.Done})
		}
	}
	return w.finish(ctx, a, project.CountResult{Message: fmt.Sprintf("Generated %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx storage.Tx) error {
			// The campaign counts its new vouchers at the end: while they
			// are made it shows the count it had (0 after a create).
			if err := tx.AddCampaignVouchers(ctx, a.ProjectID, p.CampaignID, st.Done); err != nil {
				if errors.Is(err, promotype.ErrNotFound) {
					return nil
				}
				return err
			}
			if _, err := tx.SetCampaignStatus(ctx, a.ProjectID, p.CampaignID, campaign.StatusDone, -1); err != nil {
				return err
			}
			return e.promos.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationCompleted, a.ProjectID, p.CampaignID,
				map[string]any{"count": st.Done, "completed_at": w.now()})
		})
}

// generationStarted records campaign.vouchers.generation.started (data
// {campaign, count}: the vouchers to make) in a step of its own, once per
// generation: the state remembers it across a resume.
func (w *worker) generationStarted(ctx context.Context, a *project.AsyncAction, p generatePayload, st *generateState) error {
	next := *st
	next.Started = true
	err := w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
		err := w.e.promos.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationStarted, cur.ProjectID, p.CampaignID,
			map[string]any{"count": p.Count})
		if err != nil {
			return err
		}
		cur.State, err = json.Marshal(next)
		return err
	})
	if err == nil {
		*st = next
	}
	return err
}

// updateVouchers is CAMPAIGN.VOUCHERS_UPDATE: the campaign's voucher
// settings go to its vouchers in chunks, then the campaign is DONE unless
// a later update is pending.
func (w *worker) updateVouchers(ctx context.Context, a *project.AsyncAction) error {
	var p updatePayload
	var st cursorState
	if err := decode(a, &p, &st); err != nil {
		return err
	}
	for {
		if w.stopping() {
			return errStopping
		}
		next, gone, end := st, false, false
		err := w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
			c, err := tx.GetCampaign(ctx, cur.ProjectID, p.CampaignID)
			if errors.Is(err, promotype.ErrNotFound) {
				gone = true
				return nil
			}
			if err != nil {
				return err
			}
			n, last, err := tx.UpdateCampaignVouchers(ctx, cur.ProjectID, c.ID, voucher.FieldsOf(c), next.After, w.cfg.ChunkSize)
			if err != nil {
				return err
			}
			next.Done += int64(n)
			next.After, end = last, last == ""
			cur.Progress = progress(next.Done, p.Count)
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		st = next
		if gone || end {
			break
		}
	}
	return w.finish(ctx, a, project.CountResult{Message: fmt.Sprintf("Updated %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx storage.Tx) error {
			_, err := tx.SetCampaignStatus(ctx, a.ProjectID, p.CampaignID, campaign.StatusDone, p.Revision)
			if errors.Is(err, promotype.ErrNotFound) {
				return nil
			}
			return err
		})
}

// unassignCampaignVouchers removes, through tx, the validation rule
// assignments of the live vouchers of campaign campaignID, as deleting each
// voucher on its own would (assignment.deleted events included), before
// they go in bulk.
func (e *Engine) unassignCampaignVouchers(ctx context.Context, tx storage.Tx, projectID, campaignID string) error {
	as, _, err := tx.ListAssignments(ctx, projectID, promotype.Query{Limit: 1 << 20, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "related_object_type", Op: promotype.OpIs, Values: []string{rule.RelatedVoucher}}}})
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, a := range as {
		if seen[a.RelatedObjectID] {
			continue
		}
		seen[a.RelatedObjectID] = true
		v, err := tx.GetVoucher(ctx, projectID, a.RelatedObjectID)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			continue
		case err != nil:
			return err
		case v.CampaignID == nil || *v.CampaignID != campaignID:
			continue
		}
		if err := e.ruleSvc.rules.UnassignObject(ctx, tx, projectID, rule.Related{Type: rule.RelatedVoucher, ID: v.ID, Object: v}); err != nil {
			return err
		}
	}
	return nil
}

// deleteVouchers is CAMPAIGN.VOUCHERS_DELETE: the deleted campaign's
// vouchers go to the bin in chunks (with force: are removed, and then the
// campaign too).
func (w *worker) deleteVouchers(ctx context.Context, a *project.AsyncAction) error {
	var p deletePayload
	var st cursorState
	if err := decode(a, &p, &st); err != nil {
		return err
	}
	for {
		if w.stopping() {
			return errStopping
		}
		next, end := st, false
		err := w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
			if st.Done == 0 { // with the first chunk: no voucher is gone yet
				if err := w.e.unassignCampaignVouchers(ctx, tx, cur.ProjectID, p.CampaignID); err != nil {
					return err
				}
			}
			var n int
			var err error
			if p.Force {
				n, err = tx.DeleteCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, w.cfg.ChunkSize)
			} else {
				n, err = tx.BinCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, w.now(), w.cfg.ChunkSize)
			}
			if err != nil {
				return err
			}
			next.Done += int64(n)
			end = n == 0
			cur.Progress = progress(next.Done, p.Count)
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		st = next
		if end {
			break
		}
	}
	return w.finish(ctx, a, project.CountResult{Message: fmt.Sprintf("Deleted %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx storage.Tx) error {
			if !p.Force {
				return nil
			}
			err := tx.DeleteCampaign(ctx, a.ProjectID, p.CampaignID)
			if errors.Is(err, promotype.ErrNotFound) {
				return nil
			}
			return err
		})
}

// importChunk is how many items of an import one transaction stores.
const importChunk = 1000

// importVouchers is CAMPAIGN.VOUCHERS_IMPORT: items in chunks; an item that
// cannot be stored is listed in the result with the reason.
func (w *worker) importVouchers(ctx context.Context, a *project.AsyncAction) error {
	var p importPayload
	var st importState
	if err := decode(a, &p, &st); err != nil {
		return err
	}
	e := w.e
	total := int64(len(p.Items))
	for st.Next < len(p.Items) {
		if w.stopping() {
			return errStopping
		}
		hi := min(st.Next+importChunk, len(p.Items))
		next := st
		next.Failed = append([]project.ImportFailure(nil), st.Failed...)
		gone := false
		// Metadata is checked before the chunk's transaction (the check
		// reads the project's schema).
		badMeta := map[int]error{}
		for i, item := range p.Items[st.Next:hi] {
			if err := e.promos.vouchers.CheckMetadata(ctx, a.ProjectID, item.Metadata); err != nil {
				if _, ok := errors.AsType[*promotype.Error](err); !ok {
					return err
				}
				badMeta[i] = err
			}
		}
		err := w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
			c, err := tx.GetCampaign(ctx, cur.ProjectID, p.CampaignID)
			if errors.Is(err, promotype.ErrNotFound) {
				gone = true
				return nil
			}
			if err != nil {
				return err
			}
			now := w.now()
			var vs []*voucher.Voucher
			var at []int // the item index of each of vs
			failed := map[int]project.ImportFailure{}
			for i, item := range p.Items[st.Next:hi] {
				v, err := e.promos.vouchers.ImportVoucher(ctx, tx, c, item, now)
				if err == nil {
					err = badMeta[i]
				}
				if err != nil {
					if _, ok := errors.AsType[*promotype.Error](err); !ok {
						return err
					}
					code := ""
					if item.Code != nil {
						code = *item.Code
					}
					failed[i] = project.ImportFailure{Code: code, Reason: failureReason(err)}
					continue
				}
				vs, at = append(vs, v), append(at, i)
			}
			rejected, err := tx.InsertVouchers(ctx, vs)
			if err != nil {
				return err
			}
			for _, k := range rejected {
				failed[at[k]] = project.ImportFailure{Code: vs[k].Code, Reason: fmt.Sprintf("Duplicated voucher exists with code %s", vs[k].Code)}
			}
			for i := range hi - st.Next { // in the order of the items
				if f, ok := failed[i]; ok {
					next.Failed = append(next.Failed, f)
				}
			}
			stored := int64(len(vs) - len(rejected))
			if stored > 0 {
				if err := tx.AddCampaignVouchers(ctx, cur.ProjectID, c.ID, stored); err != nil {
					return err
				}
			}
			next.Done += stored
			next.Next = hi
			cur.Progress = progress(int64(hi), total)
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		if gone {
			return w.fail(ctx, a, "The campaign was deleted before its vouchers were imported.", map[string]any{"done_count": st.Done})
		}
		st = next
	}
	failed := st.Failed
	if failed == nil {
		failed = []project.ImportFailure{}
	}
	return w.finish(ctx, a, project.ImportResult{
		Message:     fmt.Sprintf("%d voucher(s) imported successfully, %d failed.", st.Done, len(failed)),
		Failed:      failed,
		DoneCount:   st.Done,
		FailedCount: int64(len(failed)),
	}, func(ctx context.Context, tx storage.Tx) error {
		if st.Done == 0 {
			return nil
		}
		return e.promos.campaigns.EmitCampaignByID(ctx, tx, campaign.EventVouchersAdded, a.ProjectID, p.CampaignID,
			map[string]any{"count": st.Done})
	})
}
