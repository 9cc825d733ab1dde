// Package loyalty is the loyalty half of the engine: loyalty programs (a
// campaign of type LOYALTY_PROGRAM whose vouchers are loyalty cards),
// their members (cards published to customers), manual point changes,
// transfers and the card ledger, earning rules, which give points when an
// order becomes PAID or a custom event arrives, and rewards bought with
// points.
//
// Points move only through the card ledger of package redemption: every
// change of a card's points is a voucher transaction written in the
// transaction that changes the card, so a card's balance always equals
// points − expired_points − subtracted_points − redemption.redeemed_points.
//
// Earning is part of the write that makes an order PAID (an order create
// or update, a redemption, an import) or records a custom event: the
// engine tells the [Service] through promotype.Env.Triggered inside that
// write's transaction, and each matching rule earns once per order or
// event, claimed by a row keyed by rule and order, so concurrent updates
// of one order never earn twice.
//
// A reward is bought through a redemption of the card
// ([Service.RedeemReward]), so a rollback of that redemption gives the
// points back; what the reward gives (stock, a coupon, credits) is given
// in the redemption's transaction by [Service.GiveReward].
package loyalty
