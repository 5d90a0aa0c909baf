package s3store

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Defaults and limits of [Config].
const (
	DefaultRegion      = "us-east-1"
	DefaultPartSize    = 8 << 20 // bytes
	MinPartSize        = 5 << 20 // S3's smallest part (but the last)
	DefaultConcurrency = 4
	// MaxParts is S3's limit on the parts of one upload: an artifact can
	// hold at most MaxParts × PartSize bytes (80 GB at the default).
	MaxParts = 10000
)

// Config says which bucket to use and how to reach it. [ConfigFromEnv]
// fills it from an s3:// URL and the standard AWS environment variables.
type Config struct {
	// Bucket is the bucket's name. Required.
	Bucket string
	// Prefix is put before every key inside the bucket, so that several
	// deployments can share one ("prod/"). A missing trailing slash is
	// added. Default: "" (keys at the bucket's root).
	Prefix string
	// Endpoint is the URL of an S3-compatible service
	// ("http://127.0.0.1:7070"). Default: "", AWS S3 itself.
	Endpoint string
	// Region signs the requests. Default: [DefaultRegion].
	Region string
	// AccessKeyID and SecretAccessKey are the credentials; SessionToken
	// is set with temporary ones. The first two are required.
	AccessKeyID, SecretAccessKey, SessionToken string
	// PathStyle forces path-style addressing (http://host/bucket/key), as
	// most self-hosted services need. It is used anyway when Endpoint's
	// host is an IP address or "localhost". Default: false
	// (virtual-hosted style, http://bucket.host/key, elsewhere).
	PathStyle bool
	// PartSize is the size of each part of an upload, and of each of a
	// writer's buffers. At least [MinPartSize]. Default: [DefaultPartSize].
	PartSize int64
	// Concurrency is how many parts one writer uploads at once; a writer
	// holds at most Concurrency+1 part buffers. Default:
	// [DefaultConcurrency].
	Concurrency int
	// HTTPClient sends the requests. Default: the SDK's client.
	HTTPClient *http.Client
}

// ParseURL splits "s3://bucket/prefix" into the bucket and the key prefix
// ("" or ending with a slash).
func ParseURL(raw string) (bucket, prefix string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("s3store: artifact URL %q: %w", raw, err)
	}
	if u.Scheme != "s3" {
		return "", "", fmt.Errorf("s3store: artifact URL %q: scheme must be s3://", raw)
	}
	if u.Host == "" {
		return "", "", fmt.Errorf("s3store: artifact URL %q: no bucket (want s3://bucket/prefix)", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Port() != "" {
		return "", "", fmt.Errorf("s3store: artifact URL %q: only s3://bucket/prefix is allowed", raw)
	}
	return u.Host, normalPrefix(u.Path), nil
}

// normalPrefix strips leading slashes and ends a non-empty prefix with one.
func normalPrefix(p string) string {
	p = strings.Trim(p, "/")
	if p == "" {
		return ""
	}
	return p + "/"
}

// ConfigFromEnv returns the configuration for the bucket and prefix of
// rawURL ("s3://bucket/prefix"), with the service, region and credentials
// from the standard AWS environment variables, read through getenv
// (os.Getenv): AWS_ENDPOINT_URL_S3 or else AWS_ENDPOINT_URL, AWS_REGION or
// else AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN. Missing credentials are an error naming the variable.
func ConfigFromEnv(rawURL string, getenv func(string) string) (Config, error) {
	bucket, prefix, err := ParseURL(rawURL)
	if err != nil {
		return Config{}, err
	}
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	c := Config{
		Bucket:          bucket,
		Prefix:          prefix,
		Endpoint:        first("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
		Region:          first("AWS_REGION", "AWS_DEFAULT_REGION"),
		AccessKeyID:     getenv("AWS_ACCESS_KEY_ID"),
		SecretAccessKey: getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken:    getenv("AWS_SESSION_TOKEN"),
	}
	var missing []string
	if c.AccessKeyID == "" {
		missing = append(missing, "AWS_ACCESS_KEY_ID")
	}
	if c.SecretAccessKey == "" {
		missing = append(missing, "AWS_SECRET_ACCESS_KEY")
	}
	if len(missing) > 0 {
		return Config{}, fmt.Errorf("s3store: %s: environment variable %s not set", rawURL, strings.Join(missing, " and "))
	}
	return c, nil
}

// withDefaults checks c and fills in the defaults.
func (c Config) withDefaults() (Config, error) {
	var errs []error
	if c.Bucket == "" {
		errs = append(errs, errors.New("Bucket is empty"))
	}
	if c.AccessKeyID == "" || c.SecretAccessKey == "" {
		errs = append(errs, errors.New("AccessKeyID and SecretAccessKey are required"))
	}
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("Endpoint: %w", err))
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			errs = append(errs, fmt.Errorf("Endpoint %q: want http(s)://host[:port]", c.Endpoint))
		}
	}
	if c.PartSize == 0 {
		c.PartSize = DefaultPartSize
	}
	if c.PartSize < MinPartSize {
		errs = append(errs, fmt.Errorf("PartSize %d is below S3's minimum of %d bytes", c.PartSize, MinPartSize))
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Concurrency < 1 {
		errs = append(errs, fmt.Errorf("Concurrency %d: want at least 1", c.Concurrency))
	}
	if c.Region == "" {
		c.Region = DefaultRegion
	}
	c.Prefix = normalPrefix(c.Prefix)
	if err := errors.Join(errs...); err != nil {
		return Config{}, fmt.Errorf("s3store: config: %w", err)
	}
	c.PathStyle = c.PathStyle || pathStyleHost(c.Endpoint)
	return c, nil
}

// pathStyleHost reports whether an endpoint's host is an IP address or
// localhost, where virtual-hosted buckets (bucket.host) cannot resolve.
func pathStyleHost(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil || endpoint == "" {
		return false
	}
	host := u.Hostname()
	return host == "localhost" || net.ParseIP(host) != nil
}
