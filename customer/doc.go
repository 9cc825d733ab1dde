// Package customer holds customer records: created or updated by source id
// when orders, validations and custom events name them; listed, updated,
// binned and deleted for good through the customers API; answered with
// their summaries (orders, redemptions, loyalty), computed on read.
package customer
