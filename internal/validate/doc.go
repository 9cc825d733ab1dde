// Package validate holds promo's one validator/v10 instance and turns its
// field errors into 400 invalid_payload errors worded like the hosted service
// ("Property .price must be greater than or equal to 0").
package validate
