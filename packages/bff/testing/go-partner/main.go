// A partner's server in Go, on the client that Redocly CLI generates from the BFF's /openapi.json into the
// package esimembed (generated-client.test.ts generates it beside this file, builds both and runs them). It uses
// the client's methods (the operation ids) and its types (the document's components): it reads its account, takes
// the payment of the traveller's checkout (payment started, confirmed under its own reference), finds it by that
// reference, and meets what the BFF refuses — an unknown checkout, a wrong secret. It prints what it read as one
// JSON object, each answer as the client decoded it into its type.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"esim-embed.test/partner/esimembed"
)

// refusal is what a refused call tells: its HTTP status and the error envelope's code.
type refusal struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
}

func refusalOf(err error) refusal {
	var apiError *esimembed.APIError
	if !errors.As(err, &apiError) {
		fail("not an API error", err)
	}
	envelope, _ := apiError.Body.(map[string]any)
	detail, _ := envelope["error"].(map[string]any)
	code, _ := detail["code"].(string)
	return refusal{Status: apiError.Status, Code: code}
}

func fail(what string, err error) {
	var apiError *esimembed.APIError
	if errors.As(err, &apiError) {
		body, _ := json.Marshal(apiError.Body)
		fmt.Fprintf(os.Stderr, "%s: %d %s: %s\n", what, apiError.Status, apiError.URL, body)
	} else {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
	}
	os.Exit(1)
}

func check(err error) {
	if err != nil {
		fail("call refused", err)
	}
}

func ptr(text string) *string { return &text }

func clientWith(secret string) *esimembed.Client {
	return esimembed.New(esimembed.Config{
		ServerURL: os.Getenv("BFF_URL"),
		Auth:      esimembed.Auth{APIKey: map[string]func() string{"partnerSecret": func() string { return secret }}},
	})
}

func main() {
	ctx := context.Background()
	client := clientWith(os.Getenv("PARTNER_SECRET"))
	widget := &esimembed.ReadPartnerAccountParams{WidgetId: ptr(os.Getenv("WIDGET_ID"))}
	checkoutID := os.Getenv("CHECKOUT_ID")
	reference := os.Getenv("PAYMENT_REFERENCE")

	health, err := client.Health(ctx)
	check(err)
	account, err := client.ReadPartnerAccount(ctx, widget)
	check(err)
	awaiting, err := client.ReadPartnerCheckout(ctx, checkoutID)
	check(err)
	if awaiting.Data.Status != esimembed.CheckoutStatusAwaitingPayment {
		fail("checkout", fmt.Errorf("%s, not awaiting payment", awaiting.Data.Status))
	}
	started, err := client.StartPartnerPayment(ctx, checkoutID)
	check(err)
	confirmed, err := client.ConfirmPartnerCheckout(ctx, checkoutID, map[string]string{"paymentReference": reference})
	check(err)
	found, err := client.ListPartnerCheckouts(ctx, &esimembed.ListPartnerCheckoutsParams{PaymentReference: &reference})
	check(err)

	_, err = client.ReadPartnerCheckout(ctx, "chk_unknown000000")
	unknown := refusalOf(err)
	_, err = clientWith("not-the-secret").ReadPartnerAccount(ctx, widget)
	wrongSecret := refusalOf(err)

	out := map[string]any{
		"health":          health,
		"account":         account,
		"currency":        account.Data.Spendable.Currency,
		"awaiting":        awaiting,
		"started":         started,
		"confirmed":       confirmed,
		"confirmedStatus": confirmed.Data.Status,
		"found":           found,
		"unknown":         unknown,
		"wrongSecret":     wrongSecret,
	}
	check(json.NewEncoder(os.Stdout).Encode(out))
}
