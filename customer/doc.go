// Package customer holds customer records: created or updated by source id
// (your system's id for the customer) when orders, validations, redemptions
// and custom events name them, or directly through the customers API;
// listed, updated, binned and deleted for good; answered with their
// summaries (orders, redemptions, loyalty), computed on read.
//
// The [Service] (Engine.Customers()) has Upsert (create, or update the
// customer with the same source id), Get (by id or source id), List,
// Update, Delete, DeletePermanently and Activities (the customer's
// activity log). A [Customer]'s Metadata is checked against the project's
// metadata schema, and validation rules read it.
//
//	c, err := eng.Customers().Upsert(ctx, projectID, customer.Params{
//		SourceID: promo.Ptr("user-42"), Email: promo.Ptr("ann@example.com"),
//		Metadata: promotype.Metadata{"tier": "gold"},
//	})
//	// a validation naming customer.Params{SourceID: promo.Ptr("user-42")} is this customer
package customer
