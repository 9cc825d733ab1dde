package validate

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"

	"github.com/promoengine/promo/promotype"
)

var (
	once sync.Once
	v    *validator.Validate
)

func instance() *validator.Validate {
	once.Do(func() {
		v = validator.New(validator.WithRequiredStructEnabled())
		v.RegisterTagNameFunc(func(f reflect.StructField) string {
			if f.Anonymous && f.Tag.Get("json") == "" {
				return embedded // flat in the JSON: describe drops it from paths
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				return ""
			}
			if name == "" {
				return f.Name
			}
			return name
		})
		_ = v.RegisterValidation("imageurl", func(fl validator.FieldLevel) bool {
			return ImageURL(fl.Field().String()) == nil
		})
	})
	return v
}

// Struct validates s by its `validate` tags. The first failure becomes a 400
// invalid_payload naming the property.
func Struct(s any) error {
	err := instance().Struct(s)
	if err == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) || len(ves) == 0 {
		return promotype.InvalidPayload("%v", err)
	}
	return promotype.InvalidPayload("%s", describe(ves[0]))
}

// embedded names an untagged embedded struct in a namespace: its fields are
// flat in the JSON, so the segment is dropped from the property path.
const embedded = "\x00embedded"

func describe(fe validator.FieldError) string {
	ns := strings.ReplaceAll(fe.Namespace(), "."+embedded, "")
	if i := strings.IndexByte(ns, '.'); i >= 0 {
		ns = ns[i:]
	} else {
		ns = "." + ns
	}
	if fe.Tag() == "required" {
		parent := ns[:strings.LastIndexByte(ns, '.')]
		if parent == "" {
			return fmt.Sprintf("Payload must have required property '%s'", fe.Field())
		}
		return fmt.Sprintf("Property %s must have required property '%s'", parent, fe.Field())
	}
	return "Property " + ns + " " + rule(fe)
}

func rule(fe validator.FieldError) string {
	p := fe.Param()
	isStr := fe.Kind() == reflect.String
	switch fe.Tag() {
	case "min":
		if isStr {
			return fmt.Sprintf("must NOT have fewer than %s characters", p)
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("must NOT have fewer than %s items", p)
		}
		return "must be >= " + p
	case "max":
		if isStr {
			return fmt.Sprintf("must NOT have more than %s characters", p)
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("must NOT have more than %s items", p)
		}
		return "must be <= " + p
	case "gte":
		return "must be >= " + p
	case "gt":
		return "must be > " + p
	case "lte":
		return "must be <= " + p
	case "oneof":
		return "must be equal to one of the allowed values: " + strings.ReplaceAll(p, " ", ", ")
	case "imageurl":
		return "must be an HTTPS URL of a .png or .jpg file"
	case "len":
		return fmt.Sprintf("must have exactly %s characters", p)
	case "alpha":
		return "must contain letters only"
	case "http_url":
		return `must match format "uri" (an absolute http or https URL)`
	case "email":
		return `must match format "email"`
	default:
		return "is invalid (" + fe.Tag() + ")"
	}
}

// ImageURL checks the hosted API's rule for image_url: an HTTPS URL of a .png or .jpg file.
func ImageURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return errors.New("must be an HTTPS URL")
	}
	switch strings.ToLower(path.Ext(u.Path)) {
	case ".png", ".jpg":
		return nil
	}
	return errors.New("must point to a .png or .jpg file")
}
