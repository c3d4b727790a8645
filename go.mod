module github.com/agentfinance/toolkit

go 1.26.0

require (
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/google/jsonschema-go v0.4.3
	github.com/markcheno/go-talib v0.0.0-20250114000313-ec55a20c902f
	github.com/stretchr/testify v1.12.1
	gonum.org/v1/gonum v0.17.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
