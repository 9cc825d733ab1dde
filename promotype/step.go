package promotype

import (
	"context"
	"log/slog"
)

// StepFunc observes one step of the engine's work: it is called when the
// step starts, with the step's name and what identifies it, and returns the
// context the step runs in (a tracer puts its span there) and the function
// to call when the step ends, with its outcome and error. Instrumentation
// (package telemetry) implements it with spans and metrics; domain packages
// only call it, so they import no telemetry library.
//
// Steps and outcomes:
//
//   - StepPromotionValidate, StepStackableValidate: "valid", "invalid", "error";
//   - StepAsyncAction: "done", "failed", "released", "lease_lost", "error";
//   - StepWebhookTry: "delivered", "retry", "failed", "canceled".
type StepFunc func(ctx context.Context, step string, attrs ...slog.Attr) (context.Context, func(outcome string, err error))

// The steps the engine reports through Env.Step.
const (
	StepPromotionValidate = "promotion.validate"
	StepStackableValidate = "redemption.validate"
	StepRedeem            = "redemption.redeem"
	StepAsyncAction       = "async.action"
	StepWebhookTry        = "webhook.try"
)

// ValidOutcome is the outcome of a validation step: "error" when err is
// set, else "valid" or "invalid".
func ValidOutcome(valid bool, err error) string {
	switch {
	case err != nil:
		return "error"
	case valid:
		return "valid"
	}
	return "invalid"
}
