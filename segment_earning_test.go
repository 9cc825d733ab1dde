package promo_test

import (
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/segment"
)

// TestSegmentEnteredEarning: a rule on customer.segment.entered gives its
// points on each entry into its segment, in the transaction of the
// customer change (joining an auto_join program); a customer inside when
// the segment was made, one who stays inside, and an entry into another
// segment earn nothing.
func TestSegmentEnteredEarning(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Customers()
		early := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("early"), Metadata: promo.Metadata{"club": "gold"}}))
		gold := must[*segment.Segment](t)(f.eng.Segments().Create(ctx, f.project, goldFilter(segment.AutoUpdate)))
		must[*segment.Segment](t)(f.eng.Segments().Create(ctx, f.project, segment.Params{Name: promo.Ptr("Named"), Type: promo.Ptr(segment.AutoUpdate),
			Filter: []byte(`{"name":{"conditions":{"$is":"Zed"}}}`)}))
		club := newProgram(t, f, "Club", true)
		r := earnOn(t, f, club, `{"event":"customer.segment.entered","segment":{"id":"`+gold.ID+`"},"loyalty":{"type":"FIXED","points":25}}`)
		if r.Segment == nil || r.Segment.ID != gold.ID {
			t.Errorf("rule segment %+v", r.Segment)
		}

		zed := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("zed"), Name: promo.Ptr("Zed")}))
		if c := cardOf(t, f, club, zed.ID); c != nil {
			t.Errorf("entering another segment gave a card: %+v", c.LoyaltyCard)
		}
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("zed"), Metadata: promo.Metadata{"club": "gold"}}))
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("zed"), Metadata: promo.Metadata{"club": "platinum"}})) // stays inside
		card := cardOf(t, f, club, zed.ID)
		if card == nil || card.LoyaltyCard.Balance != 25 {
			t.Fatalf("zed's card after one entry: %+v", card)
		}
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("zed"), Metadata: promo.Metadata{}}))
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("zed"), Metadata: promo.Metadata{"club": "gold"}}))
		if card = cardOf(t, f, club, zed.ID); card.LoyaltyCard.Balance != 50 {
			t.Errorf("zed's balance after a second entry: %d, want 50", card.LoyaltyCard.Balance)
		}
		txs := must[*redemption.TransactionList](t)(f.eng.Loyalties().Transactions(ctx, f.project, "", card.Code, redemption.TransactionListParams{}))
		for _, tx := range txs.Data {
			if tx.Details.Event == nil || tx.Details.Event.Type != segment.EventEntered || tx.Details.EarningRule == nil || tx.Details.EarningRule.ID != r.ID {
				t.Errorf("accrual details %+v", tx.Details)
			}
		}
		// Inside before the segment existed, and changed without leaving.
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("early"), Name: promo.Ptr("Early")}))
		if c := cardOf(t, f, club, early.ID); c != nil {
			t.Errorf("a customer already inside earned: %+v", c.LoyaltyCard)
		}

		// Bad input: no segment, an unknown one, a segment on another event.
		for body, code := range map[string]int{
			`{"event":"customer.segment.entered","loyalty":{"type":"FIXED","points":5}}`:                             400,
			`{"event":"customer.segment.entered","segment":{"id":"seg_nope"},"loyalty":{"type":"FIXED","points":5}}`: 404,
			`{"event":"order.paid","segment":{"id":"` + gold.ID + `"},"loyalty":{"type":"FIXED","points":5}}`:        400,
		} {
			_, err := f.eng.Loyalties().CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t, body)})
			if err == nil {
				t.Errorf("%s accepted", body)
				continue
			}
			wantErr(t, err, code, map[int]string{400: "invalid_payload", 404: "not_found"}[code])
		}
	})
}
