package loyalty

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/promotype"
)

// recalcPage is how many cards one transaction of a recalculation takes.
const recalcPage = 500

// RecalculateTiers computes again the tier of every member of the program
// ref, a page of cards per transaction, and reports how many cards it
// computed. A card another transaction holds is left to that transaction,
// which computes its tier as it changes its points. Creating tiers runs it
// for the program, and so does an update of the program with
// options.recalculate_tiers.
func (s *Service) RecalculateTiers(ctx context.Context, projectID, ref string) (int, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return 0, err
	}
	s.rules.changed(projectID)
	total := 0
	for offset := 0; ; offset += recalcPage {
		cards, _, err := s.store.ListVouchers(ctx, projectID, promotype.Query{Limit: recalcPage, Offset: offset, OrderBy: "created_at",
			Must: []promotype.Condition{is("campaign_id", c.ID)}})
		if err != nil {
			return total, err
		}
		ids := make([]string, 0, len(cards))
		for _, v := range cards {
			if v.HolderID != nil && v.LoyaltyCard != nil {
				ids = append(ids, v.ID)
			}
		}
		if len(ids) > 0 {
			n, err := s.retierCards(ctx, projectID, ids, true)
			total += n
			if err != nil {
				return total, err
			}
		}
		if len(cards) < recalcPage {
			return total, nil
		}
	}
}

// recalculateTiers reads options.recalculate_tiers of a program update.
func recalculateTiers(options json.RawMessage) (bool, error) {
	if len(options) == 0 || string(options) == "null" {
		return false, nil
	}
	var o struct {
		RecalculateTiers *bool `json:"recalculate_tiers"`
	}
	if err := json.Unmarshal(options, &o); err != nil {
		return false, promotype.InvalidPayload("Property .options must be an object with a boolean recalculate_tiers")
	}
	return o.RecalculateTiers != nil && *o.RecalculateTiers, nil
}
