package webhook

import "slices"

// Events are the event names a webhook configuration may list, exactly as
// the hosted API spells them (including "aded").
var Events = []string{
	"business_validation_rule.assignment.created", "business_validation_rule.assignment.deleted",
	"business_validation_rule.created", "business_validation_rule.deleted", "business_validation_rule.updated",
	"campaign.created", "campaign.deleted", "campaign.disabled", "campaign.enabled", "campaign.updated",
	"campaign.vouchers.aded", "campaign.vouchers.generation.completed", "campaign.vouchers.generation.failed",
	"campaign.vouchers.generation.started",
	"campaign.earning_rule.assigned", "campaign.earning_rule.deleted", "campaign.earning_rule.disabled",
	"campaign.earning_rule.enabled", "campaign.earning_rule.updated",
	"campaign.loyalty_tier.created", "campaign.loyalty_tier.deleted", "campaign.loyalty_tier.updated",
	"campaign.promotion_stack.created", "campaign.promotion_stack.updated",
	"campaign.promotion_tier.created", "campaign.promotion_tier.deleted", "campaign.promotion_tier.disabled",
	"campaign.promotion_tier.enabled", "campaign.promotion_tier.updated",
	"campaign.referral_tier.created", "campaign.referral_tier.deleted", "campaign.referral_tier.updated",
	"campaign.reward.assignment.created", "campaign.reward.assignment.deleted", "campaign.reward.assignment.updated",
	"customer.confirmed", "customer.created", "customer.deleted", "customer.rewarded", "customer.rewarded.loyalty_points",
	"publication.succeeded", "redemption.failed", "redemption.rollback.failed", "redemption.rollback.succeeded",
	"redemption.succeeded",
	"voucher.created", "voucher.deleted", "voucher.disabled", "voucher.enabled", "voucher.published",
	"voucher.updated", "voucher.gift.balance_aded", "voucher.gift.transaction.created",
	"voucher.loyalty_card.pending_points.activated", "voucher.loyalty_card.pending_points.aded",
	"voucher.loyalty_card.pending_points.canceled", "voucher.loyalty_card.pending_points.updated",
	"voucher.loyalty_card.points_aded", "voucher.loyalty_card.points_expired",
	"voucher.loyalty_card.transaction.created",
}

var eventSet = func() map[string]struct{} {
	m := make(map[string]struct{}, len(Events))
	for _, e := range Events {
		m[e] = struct{}{}
	}
	return m
}()

// IsEvent reports whether name is an event name of the catalogue.
func IsEvent(name string) bool {
	_, ok := eventSet[name]
	return ok
}

// Listens reports whether a configuration listing events wants name.
func Listens(events []string, name string) bool { return slices.Contains(events, name) }
