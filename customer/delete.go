package customer

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// Delete moves the customer ref (id or source id) to the bin (DELETE
// /v1/customers/{customerId}): it disappears from reads, lists and
// upserts by source id, and its source id may name a new customer. The
// customer.deleted event goes out in the same transaction. Its orders,
// redemptions and publications stay as they are.
func (s *Service) Delete(ctx context.Context, projectID, ref string) error {
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := Resolve(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		if err := st.BinCustomer(ctx, projectID, c.ID, s.env.Clock.Now()); err != nil {
			return err
		}
		return deletedEvent(ctx, st, s.env, c, true)
	})
}

// PermanentDeletion is the answer of a permanent customer deletion (object
// "pernament_deletion", spelled as the hosted service spells it).
type PermanentDeletion struct {
	ID              string         `json:"id"`
	CreatedAt       promotype.Time `json:"created_at"`
	RelatedObjectID string         `json:"related_object_id"`
	RelatedObject   string         `json:"related_object"`
	Status          string         `json:"status"`
	DataJSON        DeletionCounts `json:"data_json"`
	Object          string         `json:"object"`
}

// DeletionCounts counts what a permanent deletion removed, as the hosted
// service answers it: events, daily events, segments and orders counted
// (this engine keeps no event log but the activity log, no daily events,
// and a deletion keeps the customer's orders: they belong to the project's
// sales and redemption history), customer_events and order_events null
// (the hosted service does not count them; the activity log goes with
// the customer all the same), and the customer.
type DeletionCounts struct {
	Events         int  `json:"events"`
	CustomerEvents *int `json:"customer_events"`
	DailyEvents    int  `json:"daily_events"`
	Segments       int  `json:"segments"`
	Orders         int  `json:"orders"`
	OrderEvents    *int `json:"order_events"`
	Customer       int  `json:"customer"`
}

// DeletePermanently removes the customer ref for good (POST
// /v1/customers/{customerId}/permanent-deletion): a live customer by id
// or source id, or one in the bin by its id. It answers at once with
// status DONE. Deleting a live customer writes customer.deleted; the
// customer's activity log is deleted with it.
func (s *Service) DeletePermanently(ctx context.Context, projectID, ref string) (*PermanentDeletion, error) {
	var id string
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := Resolve(ctx, st, projectID, ref)
		if errors.Is(err, promotype.ErrNotFound) {
			// Not live: a binned customer is named by its id.
			id = ref
			if err := st.DeleteCustomer(ctx, projectID, ref); errors.Is(err, promotype.ErrNotFound) {
				return promotype.NotFound("customer", ref)
			} else if err != nil {
				return err
			}
			_, err := st.DeleteActivities(ctx, projectID, ref)
			return err
		}
		if err != nil {
			return err
		}
		id = c.ID
		if err := st.DeleteCustomer(ctx, projectID, c.ID); err != nil {
			return err
		}
		if _, err := st.DeleteActivities(ctx, projectID, c.ID); err != nil {
			return err
		}
		return deletedEvent(ctx, st, s.env, c, false)
	})
	if err != nil {
		return nil, err
	}
	return &PermanentDeletion{
		ID: s.env.IDs.NewID(prefixDeletion), CreatedAt: s.env.Clock.Now(), RelatedObjectID: id,
		RelatedObject: "customer", Status: "DONE", DataJSON: DeletionCounts{Customer: 1}, Object: "pernament_deletion",
	}, nil
}

// prefixDeletion is the id prefix of permanent deletions, as the hosted
// service makes them.
const prefixDeletion = "del_"

// deletedEvent writes customer.deleted for c through st, and into c's
// activity log when logged (a deletion to the bin: a permanent one deletes
// the log).
func deletedEvent(ctx context.Context, st Store, env promotype.Env, c *Customer, logged bool) error {
	ev, err := promotype.NewEvent(env, c.ProjectID, EventDeleted, c.ID, map[string]any{"customer": c})
	if err != nil {
		return err
	}
	if logged {
		ev.For(c.ID, ActivityDeleted)
	}
	return st.AppendEvents(ctx, ev)
}
