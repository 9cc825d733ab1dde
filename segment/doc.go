// Package segment is customer segments: static ones (a fixed list of
// customers) and filter ones (auto-update, which tells of entries and
// exits, and passive, which does not), whose membership is kept in a table
// written in the transaction of the customer change that moves it, so
// validations read a customer's segments without scanning customers.
//
// The [Service] (Engine.Segments()) creates, reads and deletes a [Segment]
// and lists a customer's segments (ForCustomer); validation rules on
// customer.segment and loyalty earning rules on customer.segment.entered
// read them.
//
//	s, err := eng.Segments().Create(ctx, projectID, segment.Params{
//		Name: promo.Ptr("VIP"), Type: promo.Ptr("static"), Customers: []string{"user-42"},
//	})
package segment
