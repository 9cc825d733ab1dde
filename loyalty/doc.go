// Package loyalty is the loyalty half of the engine: loyalty programs (a
// campaign of type LOYALTY_PROGRAM whose vouchers are loyalty cards),
// their members (cards published to customers), manual point changes and
// the card ledger, and earning rules, which give points when an order
// becomes PAID.
//
// Points move only through the card ledger of package redemption: every
// change of a card's points is a voucher transaction written in the
// transaction that changes the card, so a card's balance always equals
// points − expired_points − subtracted_points − redemption.redeemed_points.
//
// Earning is part of the write that makes an order PAID (an order create
// or update, a redemption, an import): the engine tells the [Service]
// through promotype.Env.OrderPaid inside that write's transaction, and
// each matching rule earns once per order, claimed by a row keyed by rule
// and order, so concurrent updates of one order never earn twice.
package loyalty
