package s3store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestConfigFromEnv(t *testing.T) {
	cfg, err := s3store.ConfigFromEnv("s3://exports/prod/eu/", env(map[string]string{
		"AWS_ENDPOINT_URL":      "http://127.0.0.1:7070",
		"AWS_REGION":            "eu-west-1",
		"AWS_ACCESS_KEY_ID":     "id",
		"AWS_SECRET_ACCESS_KEY": "secret",
		"AWS_SESSION_TOKEN":     "token",
	}))
	require.NoError(t, err)
	assert.Equal(t, s3store.Config{
		Bucket: "exports", Prefix: "prod/eu/", Endpoint: "http://127.0.0.1:7070", Region: "eu-west-1",
		AccessKeyID: "id", SecretAccessKey: "secret", SessionToken: "token",
	}, cfg)

	cfg, err = s3store.ConfigFromEnv("s3://b", env(map[string]string{
		"AWS_ENDPOINT_URL_S3": "http://s3.internal", "AWS_ENDPOINT_URL": "http://other",
		"AWS_DEFAULT_REGION": "us-west-2", "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret",
	}))
	require.NoError(t, err)
	assert.Equal(t, "http://s3.internal", cfg.Endpoint, "the S3-specific endpoint wins")
	assert.Equal(t, "us-west-2", cfg.Region, "AWS_DEFAULT_REGION when AWS_REGION is unset")
	assert.Equal(t, "", cfg.Prefix)

	_, err = s3store.ConfigFromEnv("s3://b/p", env(map[string]string{"AWS_ACCESS_KEY_ID": "id"}))
	assert.ErrorContains(t, err, "AWS_SECRET_ACCESS_KEY not set")
	_, err = s3store.ConfigFromEnv("s3://b/p", env(nil))
	assert.ErrorContains(t, err, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set")
}

func TestParseURL(t *testing.T) {
	for raw, want := range map[string][2]string{
		"s3://b":          {"b", ""},
		"s3://b/":         {"b", ""},
		"s3://b/p":        {"b", "p/"},
		"s3://b//p/q//":   {"b", "p/q/"},
		"s3://my.bucket/": {"my.bucket", ""},
	} {
		bucket, prefix, err := s3store.ParseURL(raw)
		if assert.NoError(t, err, raw) {
			assert.Equal(t, want, [2]string{bucket, prefix}, raw)
		}
	}
	for raw, msg := range map[string]string{
		"http://b/p":    "scheme must be s3://",
		"s3:///p":       "no bucket",
		"s3://b:9000/p": "only s3://bucket/prefix",
		"s3://u@b/p":    "only s3://bucket/prefix",
		"s3://b/p?x=1":  "only s3://bucket/prefix",
		"b/p":           "scheme must be s3://",
		"s3://b/%zz":    "invalid URL escape",
	} {
		_, _, err := s3store.ParseURL(raw)
		assert.ErrorContains(t, err, msg, raw)
	}
}

func TestNewPathStyle(t *testing.T) {
	base := s3store.Config{Bucket: "b", AccessKeyID: "id", SecretAccessKey: "secret"}
	for endpoint, want := range map[string]bool{
		"":                           false,
		"https://s3.example.com":     false,
		"http://127.0.0.1:7070":      true,
		"http://[::1]:7070":          true,
		"http://localhost:9000":      true,
		"http://10.1.2.3":            true,
		"https://minio.internal:443": false,
	} {
		cfg := base
		cfg.Endpoint = endpoint
		s, err := s3store.New(cfg)
		require.NoError(t, err, endpoint)
		assert.Equal(t, want, s.Config().PathStyle, "path style for %q", endpoint)
	}
	cfg := base
	cfg.Endpoint, cfg.PathStyle = "https://s3.example.com", true
	s, err := s3store.New(cfg)
	require.NoError(t, err)
	assert.True(t, s.Config().PathStyle, "forced")
}

func TestNewDefaultsAndErrors(t *testing.T) {
	s, err := s3store.New(s3store.Config{Bucket: "b", Prefix: "/p", AccessKeyID: "id", SecretAccessKey: "secret"})
	require.NoError(t, err)
	got := s.Config()
	assert.Equal(t, "p/", got.Prefix)
	assert.Equal(t, s3store.DefaultRegion, got.Region)
	assert.EqualValues(t, s3store.DefaultPartSize, got.PartSize)
	assert.Equal(t, s3store.DefaultConcurrency, got.Concurrency)

	_, err = s3store.New(s3store.Config{PartSize: 1 << 20, Concurrency: -1, Endpoint: "ftp://x"})
	require.Error(t, err)
	for _, msg := range []string{"Bucket is empty", "AccessKeyID and SecretAccessKey are required", "PartSize 1048576 is below", "Concurrency -1", `Endpoint "ftp://x"`} {
		assert.ErrorContains(t, err, msg, "every problem is reported")
	}
}
