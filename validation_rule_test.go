package promo_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/rule"
)

func ruleParams(t *testing.T, js string) rule.Params {
	t.Helper()
	var p rule.Params
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The official example's rule set, as an SDK sends it.
const santorini = `{"name":"Business Validation Rule","error":{"message":"Rule set failed"},
	"rules":{"1":{"name":"order.metadata","property":"location","conditions":{"$is":["Santorini"]},"error":{"message":"Your order must be placed at one of our Santorini shops."}},
	"2":{"name":"order.items.every","conditions":{"$is":[{"id":"prod_1","object":"product","source_id":"src"}]},
	"rules":{"1":{"name":"order.items.metadata","property":"test","conditions":{"$greater_than_or_equal":[1]}}}},"logic":"1 and 2"},
	"applicable_to":{"included":[{"object":"product","id":"prod_1","quantity_limit":5}],"excluded":[],"included_all":false}}`

func TestValidationRuleCRUD(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		vr := f.eng.ValidationRules()
		r := must[*rule.ValidationRule](t)(vr.Create(ctx, f.project, ruleParams(t, santorini)))
		if r.Type != "expression" || r.ContextType != "global" || r.Object != "validation_rules" || r.AssignmentsCount != 0 {
			t.Errorf("defaults: %+v", r)
		}
		if e := r.ApplicableTo.Included[0]; e.Effect != "APPLY_TO_EVERY" || *e.QuantityLimit != 5 {
			t.Errorf("applicable_to entry = %+v", e)
		}
		diff(t, "get", r, must[*rule.ValidationRule](t)(vr.Get(ctx, f.project, r.ID)))

		f.clock.Advance(time.Minute)
		upd := must[*rule.ValidationRule](t)(vr.Update(ctx, f.project, r.ID, ruleParams(t, `{"name":"Renamed","context_type":"campaign.promotion.discount.apply_to_order"}`)))
		if upd.Name != "Renamed" || len(upd.Rules.Rules) != 2 || upd.Rules.Logic != "1 and 2" || !upd.UpdatedAt.Equal(at(time.Minute)) {
			t.Errorf("update: %+v", upd)
		}
		list := must[*promo.List[*rule.ValidationRule]](t)(vr.List(ctx, f.project, promo.ListParams{Order: "name"}))
		if list.Total != 1 || list.Data[0].Name != "Renamed" {
			t.Errorf("list = %+v", list)
		}
		must[struct{}](t)(struct{}{}, vr.Delete(ctx, f.project, r.ID))
		_, err := vr.Get(ctx, f.project, r.ID)
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "validation_rules" {
			t.Errorf("resource_type = %s", e.ResourceType)
		}
	})
}

func TestValidationRuleRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		vr := f.eng.ValidationRules()
		tests := []struct{ name, js, key, want string }{
			{"no name", `{"rules":{}}`, "invalid_payload", "Payload must have required property 'name'"},
			{"segment operator", `{"name":"x","rules":{"logic":"1","1":{"name":"customer.segment","conditions":{"$starts_with":["seg_1"]}}}}`, "invalid_validation_rules",
				"Rule 'customer.segment' (rule 1): condition $starts_with takes segment ids: it supports only $is, $in, $is_not and $not_in"},
			{"custom event without property", `{"name":"x","rules":{"logic":"1","1":{"name":"customer.metadata","conditions":{"$is":["a"]}}}}`, "invalid_validation_rules",
				"Rule 'customer.metadata' must have a 'property'"},
			{"not in logic", `{"name":"x","rules":{"logic":"not 1","1":{"name":"order.amount","conditions":{"$is":[1]}}}}`, "invalid_validation_rules",
				"Rules: logic does not support 'not'"},
			{"bundle rules", `{"name":"x","bundle_rules":{"limit":2}}`, "invalid_payload", "Property .bundle_rules is not supported by this engine yet"},
			{"collection without id", `{"name":"x","applicable_to":{"included":[{"object":"products_collection"}]}}`, "invalid_payload",
				"Property .applicable_to.included[0] must have required property 'id' (the collection's)"},
			{"bad effect", `{"name":"x","applicable_to":{"included":[{"object":"product","id":"p","effect":"APPLY_TWICE"}]}}`, "invalid_payload",
				"Property .applicable_to.included[0].effect must be equal to one of the allowed values: APPLY_TO_EVERY, APPLY_TO_CHEAPEST, APPLY_FROM_CHEAPEST, APPLY_TO_MOST_EXPENSIVE, APPLY_FROM_MOST_EXPENSIVE"},
			{"bad type", `{"name":"x","type":"fancy"}`, "invalid_payload", "Property .type must be equal to one of the allowed values: expression, basic, advanced, complex"},
			{"bad context", `{"name":"x","context_type":"nowhere"}`, "invalid_payload", "Property .context_type must be one of the documented context types (for example global)"},
		}
		for _, tc := range tests {
			_, err := vr.Create(ctx, f.project, ruleParams(t, tc.js))
			if e := wantErr(t, err, 400, tc.key); e.Details != tc.want {
				t.Errorf("%s: details %q, want %q", tc.name, e.Details, tc.want)
			}
		}
		if l := must[*promo.List[*rule.ValidationRule]](t)(vr.List(ctx, f.project, promo.ListParams{})); l.Total != 0 {
			t.Errorf("refused creates stored %d rules", l.Total)
		}
		// A refused update changes nothing.
		r := must[*rule.ValidationRule](t)(vr.Create(ctx, f.project, ruleParams(t, santorini)))
		_, err := vr.Update(ctx, f.project, r.ID, ruleParams(t, `{"name":"x","rules":{"logic":"1 and 3","1":{"name":"order.amount","conditions":{"$is":[1]}}}}`))
		wantErr(t, err, 400, "invalid_validation_rules")
		diff(t, "after a refused update", r, must[*rule.ValidationRule](t)(vr.Get(ctx, f.project, r.ID)))
		// Assignments need an existing object of a supported type.
		_, err = vr.Assign(ctx, f.project, r.ID, rule.AssignmentParams{RelatedObjectType: "earning_rule", RelatedObjectID: "ern_1"}, false)
		wantErr(t, err, 400, "invalid_payload")
		_, err = vr.Assign(ctx, f.project, r.ID, rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "camp_missing"}, false)
		wantErr(t, err, 404, "not_found")
		_, err = vr.Assign(ctx, f.project, "val_missing", rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "camp_1"}, false)
		wantErr(t, err, 404, "not_found")
	})
}
