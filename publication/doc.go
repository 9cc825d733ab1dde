// Package publication publishes vouchers to customers: POST /v1/publications
// gives a customer a given voucher or the next free vouchers of a campaign
// (the voucher gets its holder and its publish count moves), GET
// /v1/publications lists the publications, and GET
// /v1/customers/{customerId}/redeemables is a customer's wallet: the
// vouchers the customer holds.
//
// A publication is one transaction: the customer upsert, the vouchers'
// holder (a conditional update in the store, so two concurrent
// publications never get the same free voucher), the publication row, the
// wallet rows and the events voucher.published and publication.succeeded in
// the outbox.
//
// The [Service] (Engine.Publications()) has Create (publish), List and
// Wallet.
//
//	p, err := eng.Publications().Create(ctx, projectID, publication.CreateParams{
//		Campaign: &publication.CampaignRef{Name: promo.Ptr("Welcome")},
//		Customer: &customer.Params{SourceID: promo.Ptr("user-42")},
//	})
package publication
