module github.com/dbcloud/dbcloud-go

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/jarcoal/httpmock v1.4.2
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
