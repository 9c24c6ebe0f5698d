package dbcloudotel_test

import (
	"log"

	"github.com/dbcloud/dbcloud-go"
	dbcloudotel "github.com/dbcloud/dbcloud-go/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Wiring: an Observer for the program's providers, set on the client.
// Without WithTracerProvider and WithMeterProvider, New uses the global
// providers (otel.SetTracerProvider, otel.SetMeterProvider).
func ExampleNew() {
	tp := sdktrace.NewTracerProvider() // with your exporter: sdktrace.WithBatcher(exp)
	mp := sdkmetric.NewMeterProvider() // with your reader: sdkmetric.WithReader(r)
	obs, err := dbcloudotel.New(dbcloudotel.WithTracerProvider(tp), dbcloudotel.WithMeterProvider(mp))
	if err != nil {
		log.Fatal(err)
	}
	client, err := dbcloud.NewClient("my-api-key",
		dbcloud.WithBaseURL("https://api.example.com/v1"),
		dbcloud.WithObserver(obs))
	if err != nil {
		log.Fatal(err)
	}
	_ = client // every call is now a span with a child per attempt, and counted
}
