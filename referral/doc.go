// Package referral runs referral programs: a campaign of type
// REFERRAL_PROGRAM whose vouchers are referral codes, each published to a
// customer, its referrer.
//
// A conversion is a new customer (the referee) redeeming a referral code
// of another customer, or, when the program's conversion_event_type is
// custom_event, a custom event of the program's name whose referral names
// the code. It counts once per referee and program: a conversion row,
// unique by program and referee, is claimed in the transaction of the
// redemption or custom event, so concurrent conversions of one referee
// reward once. The same transaction gives the referee reward (points or
// credits on the referee's card of the campaign the reward names, a card
// being published first when the referee has none) and the rewards of
// the program's referral tiers the referrer reached: the referrer's count
// of referees is a counter added to in that transaction (its row lock
// orders concurrent conversions, so each count is seen once and a tier at
// 10 referees rewards exactly once). Points and credits move through the
// card ledger of package redemption (RedemptionService.Move), and each
// reward writes customer.rewarded to the outbox.
//
// The holders of a referral code (the referrer, and referees assigned
// through the API) are read, added and removed with [Service.Holders],
// [Service.AddHolders] and [Service.RemoveHolder].
package referral
