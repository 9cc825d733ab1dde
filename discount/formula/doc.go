// Package formula is the dynamic discount formula language
// (docs/formulas.md): a formula such as
// IF(ORDER_AMOUNT > 300;ORDER_ITEM_PRICE * 0.8;ORDER_ITEM_PRICE) is parsed
// once (Parse) into a tree of closures and evaluated over an Env without
// reflection or allocation. Numbers are decimals with six places (Number);
// amounts are read in currency units. The package imports the standard
// library only.
package formula
