// Package segment is customer segments: static ones (a fixed list of
// customers) and filter ones (auto-update, which tells of entries and
// exits, and passive, which does not), whose membership is kept in a table
// written in the transaction of the customer change that moves it, so
// validations read a customer's segments without scanning customers.
package segment
