// Package customer holds customer records: created or updated by source id
// when orders, validations and custom events name them.
package customer
