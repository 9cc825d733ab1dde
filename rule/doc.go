// Package rule compiles validation rules (the numbered rule map with its
// `logic` expression, conditions and item sub-rules) into typed programs and
// evaluates them against a typed [Input] without reflection.
//
// A rule set is compiled once, when it is saved; names and conditions the
// engine cannot evaluate are refused then (400 invalid_validation_rules),
// never silently true or false at validation time. [Anchor] tells which
// facts of a request a program needs, so an [Index] can skip programs that
// cannot pass before evaluating them.
package rule
