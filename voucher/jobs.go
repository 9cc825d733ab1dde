package voucher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// JobStore is what the voucher jobs work through: the voucher and campaign
// ports and the async actions.
type JobStore interface {
	ServiceStore
	async.Store
}

// jobs is what the voucher jobs need besides the Service.
type jobs struct {
	actions *async.Service
	tx      promotype.TxFunc[JobStore]
	bulk    promotype.TxFunc[JobStore]
}

// EnableJobs registers the voucher jobs (generate, import, bulk update,
// delete) with reg and lets the service start them (GenerateInCampaign,
// ImportToCampaign) through actions. tx runs their transactions; bulk
// runs the chunks of generated vouchers (the store's bulk transaction,
// when it has one: storage.BulkTxStore; else tx).
func (s *Service) EnableJobs(reg *async.Registry, actions *async.Service, tx, bulk promotype.TxFunc[JobStore]) {
	s.jobs = &jobs{actions: actions, tx: tx, bulk: bulk}
	async.Register[campaign.GenerateVouchers](reg, generateWorker{s})
	async.Register(reg, async.WorkFunc[campaign.UpdateVouchers](s.updateVouchers))
	async.Register(reg, async.WorkFunc[campaign.DeleteVouchers](s.deleteVouchers))
	async.Register(reg, async.WorkFunc[ImportVouchers](s.importVouchers))
}

// enqueue starts a job in one transaction with prepare, and wakes the
// runner once it committed.
func (s *Service) enqueue(ctx context.Context, projectID string, prepare func(ctx context.Context, tx JobStore) (async.Args, error)) (*async.Ref, error) {
	if s.jobs == nil {
		return nil, errors.New("voucher: jobs are not enabled (EnableJobs)")
	}
	var a *async.Action
	err := s.jobs.tx(ctx, func(ctx context.Context, tx JobStore) error {
		args, err := prepare(ctx, tx)
		if err != nil {
			return err
		}
		a, err = s.jobs.actions.Enqueue(ctx, tx, projectID, args)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.jobs.actions.Wake()
	return &async.Ref{AsyncActionID: a.ID}, nil
}

// GenerateInCampaign generates in.VouchersCount vouchers (default 1) in the
// campaign with id or name ref with a CAMPAIGN.VOUCHERS_GENERATE action;
// the campaign is IN_PROGRESS until it ends (POST
// /v1/campaigns/{id}/vouchers with vouchers_count). A campaign still
// generating takes it too: the action waits for the running one.
func (s *Service) GenerateInCampaign(ctx context.Context, projectID, ref string, in CampaignParams) (*async.Ref, error) {
	if in.VouchersCount == nil {
		in.VouchersCount = promotype.Ptr[int64](1)
	}
	if err := s.CheckMetadata(ctx, projectID, in.Metadata); err != nil {
		return nil, err
	}
	params, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, func(ctx context.Context, tx JobStore) (async.Args, error) {
		c, err := s.campaigns.Resolve(ctx, tx, projectID, ref)
		if err != nil {
			return nil, err
		}
		if _, _, err := s.PrepareForCampaign(ctx, tx, c, in); err != nil {
			return nil, err
		}
		// IN_PROGRESS at a new revision: an earlier job of the campaign
		// still queued (a generation, an update) does not set it DONE.
		c.Revision++
		c.CreationStatus, c.VouchersGenerationStatus = campaign.StatusInProgress, campaign.StatusInProgress
		if err := tx.UpdateCampaign(ctx, c); err != nil {
			return nil, err
		}
		rev := c.Revision
		return campaign.GenerateVouchers{CampaignID: c.ID, Count: *in.VouchersCount, Params: params, Revision: &rev}, nil
	})
}

// MaxImportItems bounds the vouchers of one import.
const MaxImportItems = 100_000

// ImportVouchers stores Items in a campaign (CAMPAIGN.VOUCHERS_IMPORT).
type ImportVouchers struct {
	CampaignID string       `json:"campaign_id"`
	Items      []ImportItem `json:"items"`
}

// Kind implements async.Args.
func (ImportVouchers) Kind() string { return campaign.ActionVouchersImport }

// SerialKey implements async.Serial: the import waits for the campaign's
// generation (campaign.SerialKey).
func (a ImportVouchers) SerialKey() string { return campaign.SerialKey(a.CampaignID) }

// ImportToCampaign imports vouchers into the campaign with id or name ref
// with a CAMPAIGN.VOUCHERS_IMPORT action; each item needs a code, and
// takes the campaign's settings overridden by its own fields. Items that
// cannot be stored (an invalid field, a code taken) are listed in the
// action's result with the reason; the others are stored.
func (s *Service) ImportToCampaign(ctx context.Context, projectID, ref string, items []ImportItem) (*async.Ref, error) {
	if len(items) == 0 {
		return nil, promotype.InvalidPayload("Payload must NOT have fewer than 1 items")
	}
	if len(items) > MaxImportItems {
		return nil, promotype.InvalidPayload("Payload must NOT have more than %d items", MaxImportItems)
	}
	return s.enqueue(ctx, projectID, func(ctx context.Context, tx JobStore) (async.Args, error) {
		c, err := s.campaigns.Resolve(ctx, tx, projectID, ref)
		if err != nil {
			return nil, err
		}
		if !c.CampaignType.HasVouchers() {
			return nil, campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
		}
		return ImportVouchers{CampaignID: c.ID, Items: items}, nil
	})
}

// The checkpoints (state) of the jobs, saved with each chunk.

type generateState struct {
	Done    int64 `json:"done"`
	Stalled int   `json:"stalled"` // chunks in a row that stored nothing (every code taken)
	Started bool  `json:"started,omitempty"`
}

type cursorState struct {
	After string `json:"after"`
	Done  int64  `json:"done"`
}

type importState struct {
	Next   int                   `json:"next"`
	Done   int64                 `json:"done"`
	Failed []async.ImportFailure `json:"failed"`
}

// maxStalledChunks is how many chunks in a row may store no voucher (every
// code taken) before a generation gives up: the code space is used up.
const maxStalledChunks = 50

// generateWorker is CAMPAIGN.VOUCHERS_GENERATE, a Failer: a failed
// generation sets its campaign FAILED.
type generateWorker struct{ s *Service }

// Work makes Count vouchers in chunks; codes taken (in the project or by
// the chunk itself) are made again, never fatal, until the code space is
// used up. The campaign's vouchers_count takes the vouchers made when the
// action ends (DONE or FAILED).
func (w generateWorker) Work(ctx context.Context, job *async.Job[campaign.GenerateVouchers]) error {
	s, p, a := w.s, job.Args, job.Action()
	var st generateState
	if err := job.State(&st); err != nil {
		return err
	}
	c, err := s.store.GetCampaign(ctx, a.ProjectID, p.CampaignID)
	if errors.Is(err, promotype.ErrNotFound) {
		return w.Fail(ctx, job, "The campaign was deleted before its vouchers were generated.", nil)
	}
	if err != nil {
		return err
	}
	var params CampaignParams
	if len(p.Params) > 0 {
		if err := json.Unmarshal(p.Params, &params); err != nil {
			return err
		}
	}
	tmpl, gen, err := s.GenerationFor(ctx, s.store, c, params)
	if err != nil {
		return err
	}
	if !st.Started {
		err := async.Step(ctx, job.Handle, s.jobs.tx, func(ctx context.Context, tx JobStore, cur *async.Action) error {
			err := s.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationStarted, cur.ProjectID, p.CampaignID,
				map[string]any{"count": p.Count})
			if err != nil {
				return err
			}
			next := st
			next.Started = true
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		st.Started = true
	}
	g := s.NewGeneration(tmpl, gen)
	err = async.RunChunks(ctx, job.Handle, &st, async.Chunks[generateState, JobStore]{
		Run:  s.jobs.bulk,
		More: func(st generateState) bool { return st.Done < p.Count && st.Stalled < maxStalledChunks },
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *generateState) error {
			n := int(min(int64(job.ChunkSize()), p.Count-next.Done))
			rejected, err := tx.InsertBatch(ctx, g.Next(n, job.Now()))
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
			cur.Progress = async.Progress(next.Done, p.Count)
			return nil
		},
	})
	if err != nil {
		return err
	}
	if st.Stalled >= maxStalledChunks {
		return w.Fail(ctx, job, fmt.Sprintf("Generated %d of %d vouchers: no free code left in the code config's code space.", st.Done, p.Count), nil)
	}
	return async.Finish(ctx, job.Handle, s.jobs.tx, async.CountResult{Message: fmt.Sprintf("Generated %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx JobStore) error {
			// The campaign counts its new vouchers at the end: while they
			// are made it shows the count it had (0 after a create).
			if err := tx.AddCampaignVouchers(ctx, a.ProjectID, p.CampaignID, st.Done); err != nil {
				if errors.Is(err, promotype.ErrNotFound) {
					return nil
				}
				return err
			}
			if _, err := tx.SetCampaignStatus(ctx, a.ProjectID, p.CampaignID, campaign.StatusDone, p.StatusRevision()); err != nil {
				return err
			}
			return s.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationCompleted, a.ProjectID, p.CampaignID,
				map[string]any{"count": st.Done, "completed_at": job.Now()})
		})
}

// Fail ends the generation FAILED: its campaign counts the vouchers made
// before the failure, and is set FAILED.
func (w generateWorker) Fail(ctx context.Context, job *async.Job[campaign.GenerateVouchers], reason string, _ map[string]any) error {
	s, p := w.s, job.Args
	var st generateState
	stateErr := job.State(&st)
	return async.Fail(ctx, job.Handle, s.jobs.tx, reason, map[string]any{"done_count": st.Done},
		func(ctx context.Context, tx JobStore, cur *async.Action) error {
			if stateErr != nil {
				return nil
			}
			err := tx.AddCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, st.Done)
			if err == nil {
				_, err = tx.SetCampaignStatus(ctx, cur.ProjectID, p.CampaignID, campaign.StatusFailed, p.StatusRevision())
			}
			if err == nil {
				err = s.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationFailed, cur.ProjectID, p.CampaignID,
					map[string]any{"count": st.Done, "failed_at": job.Now()})
			}
			if err != nil && !errors.Is(err, promotype.ErrNotFound) {
				return err
			}
			return nil
		})
}

// updateVouchers is CAMPAIGN.VOUCHERS_UPDATE: the campaign's voucher
// settings go to its vouchers in chunks, then the campaign is DONE unless
// a later update is pending.
func (s *Service) updateVouchers(ctx context.Context, job *async.Job[campaign.UpdateVouchers]) error {
	p := job.Args
	var st cursorState
	gone, end := false, false
	err := async.RunChunks(ctx, job.Handle, &st, async.Chunks[cursorState, JobStore]{
		Run:  s.jobs.tx,
		More: func(cursorState) bool { return !gone && !end },
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *cursorState) error {
			c, err := tx.GetCampaign(ctx, cur.ProjectID, p.CampaignID)
			if errors.Is(err, promotype.ErrNotFound) {
				gone = true
				return nil
			}
			if err != nil {
				return err
			}
			n, last, err := tx.UpdateCampaignVouchers(ctx, cur.ProjectID, c.ID, FieldsOf(c), next.After, job.ChunkSize())
			if err != nil {
				return err
			}
			next.Done += int64(n)
			next.After, end = last, last == ""
			cur.Progress = async.Progress(next.Done, p.Count)
			return nil
		},
	})
	if err != nil {
		return err
	}
	return async.Finish(ctx, job.Handle, s.jobs.tx, async.CountResult{Message: fmt.Sprintf("Updated %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx JobStore) error {
			_, err := tx.SetCampaignStatus(ctx, job.Action().ProjectID, p.CampaignID, campaign.StatusDone, p.Revision)
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
func (s *Service) unassignCampaignVouchers(ctx context.Context, tx JobStore, projectID, campaignID string) error {
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
		if err := s.rules.UnassignObject(ctx, tx, projectID, rule.Related{Type: rule.RelatedVoucher, ID: v.ID, Object: v}); err != nil {
			return err
		}
	}
	return nil
}

// deleteVouchers is CAMPAIGN.VOUCHERS_DELETE: the deleted campaign's
// vouchers go to the bin in chunks (with force: are removed, and then the
// campaign too).
func (s *Service) deleteVouchers(ctx context.Context, job *async.Job[campaign.DeleteVouchers]) error {
	p := job.Args
	var st cursorState
	end := false
	err := async.RunChunks(ctx, job.Handle, &st, async.Chunks[cursorState, JobStore]{
		Run:  s.jobs.tx,
		More: func(cursorState) bool { return !end },
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *cursorState) error {
			if next.Done == 0 { // with the first chunk: no voucher is gone yet
				if err := s.unassignCampaignVouchers(ctx, tx, cur.ProjectID, p.CampaignID); err != nil {
					return err
				}
			}
			var n int
			var err error
			if p.Force {
				n, err = tx.DeleteCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, job.ChunkSize())
			} else {
				n, err = tx.BinCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, job.Now(), job.ChunkSize())
			}
			if err != nil {
				return err
			}
			next.Done += int64(n)
			end = n == 0
			cur.Progress = async.Progress(next.Done, p.Count)
			return nil
		},
	})
	if err != nil {
		return err
	}
	return async.Finish(ctx, job.Handle, s.jobs.tx, async.CountResult{Message: fmt.Sprintf("Deleted %d vouchers.", st.Done), DoneCount: st.Done},
		func(ctx context.Context, tx JobStore) error {
			if !p.Force {
				return nil
			}
			err := tx.DeleteCampaign(ctx, job.Action().ProjectID, p.CampaignID)
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
func (s *Service) importVouchers(ctx context.Context, job *async.Job[ImportVouchers]) error {
	p, projectID := job.Args, job.Action().ProjectID
	var st importState
	gone := false
	badMeta := map[int]error{} // of the chunk's items, by index in it
	err := async.RunChunks(ctx, job.Handle, &st, async.Chunks[importState, JobStore]{
		Run:  s.jobs.tx,
		More: func(st importState) bool { return !gone && st.Next < len(p.Items) },
		// Metadata is checked before the chunk's transaction (the check
		// reads the project's schema).
		Prepare: func(ctx context.Context, st importState) error {
			clear(badMeta)
			for i, item := range p.Items[st.Next:min(st.Next+importChunk, len(p.Items))] {
				if err := s.CheckMetadata(ctx, projectID, item.Metadata); err != nil {
					if _, ok := errors.AsType[*promotype.Error](err); !ok {
						return err
					}
					badMeta[i] = err
				}
			}
			return nil
		},
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *importState) error {
			c, err := tx.GetCampaign(ctx, cur.ProjectID, p.CampaignID)
			if errors.Is(err, promotype.ErrNotFound) {
				gone = true
				return nil
			}
			if err != nil {
				return err
			}
			return s.importChunk(ctx, tx, c, p.Items, badMeta, cur, next, job.Now())
		},
	})
	if err != nil {
		return err
	}
	if gone {
		return async.Fail(ctx, job.Handle, s.jobs.tx, "The campaign was deleted before its vouchers were imported.",
			map[string]any{"done_count": st.Done}, nil)
	}
	failed := st.Failed
	if failed == nil {
		failed = []async.ImportFailure{}
	}
	return async.Finish(ctx, job.Handle, s.jobs.tx, async.ImportResult{
		Message:     fmt.Sprintf("%d voucher(s) imported successfully, %d failed.", st.Done, len(failed)),
		Failed:      failed,
		DoneCount:   st.Done,
		FailedCount: int64(len(failed)),
	}, func(ctx context.Context, tx JobStore) error {
		if st.Done == 0 {
			return nil
		}
		return s.campaigns.EmitCampaignByID(ctx, tx, campaign.EventVouchersAdded, projectID, p.CampaignID,
			map[string]any{"count": st.Done})
	})
}

// importChunk stores the chunk of items that starts at next.Next in
// campaign c and moves next past it.
func (s *Service) importChunk(ctx context.Context, tx JobStore, c *campaign.Campaign, items []ImportItem, badMeta map[int]error,
	cur *async.Action, next *importState, now promotype.Time) error {
	from, hi := next.Next, min(next.Next+importChunk, len(items))
	next.Failed = slices.Clone(next.Failed) // the state before the chunk stays as it was
	var vs []*Voucher
	var at []int // the item index of each of vs
	failed := map[int]async.ImportFailure{}
	for i, item := range items[from:hi] {
		v, err := s.ImportVoucher(ctx, tx, c, item, now)
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
			failed[i] = async.ImportFailure{Code: code, Reason: async.Reason(err)}
			continue
		}
		vs, at = append(vs, v), append(at, i)
	}
	rejected, err := tx.InsertVouchers(ctx, vs)
	if err != nil {
		return err
	}
	for _, k := range rejected {
		failed[at[k]] = async.ImportFailure{Code: vs[k].Code, Reason: fmt.Sprintf("Duplicated voucher exists with code %s", vs[k].Code)}
	}
	for i := range hi - from { // in the order of the items
		if f, ok := failed[i]; ok {
			next.Failed = append(next.Failed, f)
		}
	}
	kept := Kept(vs, rejected)
	stored := int64(len(kept))
	if stored > 0 {
		if err := tx.AddCampaignVouchers(ctx, cur.ProjectID, c.ID, stored); err != nil {
			return err
		}
	}
	// voucher.created for each, in the chunk's transaction, as a voucher
	// created alone has (nothing built when no webhook listens).
	if err := s.EmitCreated(ctx, tx, cur.ProjectID, kept); err != nil {
		return err
	}
	next.Done += stored
	next.Next = hi
	cur.Progress = async.Progress(int64(hi), int64(len(items)))
	return nil
}

// Related checks that a campaign (by id or name) or a voucher (by id or
// code) exists in the project and returns it as the API shows it, for
// validation rule assignments (rule.NewService's resolver).
func (s *Service) Related(ctx context.Context, projectID, objectType, objectID string) (rule.Related, error) {
	var id string
	var obj any
	switch objectType {
	case rule.RelatedCampaign:
		c, err := s.campaigns.Get(ctx, projectID, objectID)
		if err == nil {
			c, err = campaign.FillTiers(ctx, s.store, c)
		}
		if err != nil {
			return rule.Related{}, err
		}
		id, obj = c.ID, c
	case rule.RelatedVoucher:
		v, err := s.Get(ctx, projectID, objectID)
		if err != nil {
			return rule.Related{}, err
		}
		id, obj = v.ID, v
	default:
		return rule.Related{}, promotype.NotFound(objectType, objectID)
	}
	return rule.Related{Type: objectType, ID: id, Object: obj}, nil
}
