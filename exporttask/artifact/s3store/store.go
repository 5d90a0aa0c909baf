package s3store

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

var (
	_ artifact.Store     = (*Store)(nil)
	_ artifact.Presigner = (*Store)(nil)
)

// Store is an [artifact.Store] on an S3 bucket, safe for
// concurrent use by any number of goroutines and processes.
type Store struct {
	client *s3.Client
	cfg    Config
}

// New returns the store on cfg's bucket. It sends no request; a wrong
// endpoint or credentials show at the first call (see [Store.CreateBucket]
// for a check at start-up).
func New(cfg Config) (*Store, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	opts := s3.Options{
		Region:       cfg.Region,
		Credentials:  aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, cfg.SessionToken)),
		UsePathStyle: cfg.PathStyle,
		// Checksums only where S3 demands them: S3-compatible services
		// differ in which of the newer checksum headers they accept.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}
	if cfg.Endpoint != "" {
		opts.BaseEndpoint = aws.String(cfg.Endpoint)
	}
	if cfg.HTTPClient != nil {
		opts.HTTPClient = cfg.HTTPClient
	}
	return &Store{client: s3.New(opts), cfg: cfg}, nil
}

// Config returns the store's configuration, with defaults filled in.
func (s *Store) Config() Config { return s.cfg }

// objectKey returns the bucket's key for an artifact key.
func (s *Store) objectKey(key string) string { return s.cfg.Prefix + key }

// CreateBucket creates the store's bucket unless it exists already and is
// the caller's. A server can call it at start-up to check the endpoint and
// credentials.
func (s *Store) CreateBucket(ctx context.Context) error {
	in := &s3.CreateBucketInput{Bucket: aws.String(s.cfg.Bucket)}
	if s.cfg.Region != DefaultRegion {
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{LocationConstraint: types.BucketLocationConstraint(s.cfg.Region)}
	}
	_, err := s.client.CreateBucket(ctx, in)
	if err != nil && !hasCode(err, "BucketAlreadyOwnedByYou") {
		return fmt.Errorf("s3store: create bucket %q: %w", s.cfg.Bucket, err)
	}
	return nil
}

// Open returns the committed file at key after a HEAD request; the
// returned object reads it with ranged GETs, lazily, with ctx. A file
// replaced after Open makes reads fail rather than mix two versions.
func (s *Store) Open(ctx context.Context, key string) (artifact.Object, error) {
	if err := artifactkey.Check(key); err != nil {
		return nil, fmt.Errorf("s3store: open: %w", err)
	}
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(s.objectKey(key))})
	if err != nil {
		if isNotFound(err) {
			return nil, fmt.Errorf("s3store: open %q: %w", key, artifact.ErrNotFound)
		}
		return nil, fmt.Errorf("s3store: open %q: %w", key, err)
	}
	return &object{
		ctx: ctx, s: s, etag: aws.ToString(head.ETag),
		info: artifact.Info{Key: key, Size: aws.ToInt64(head.ContentLength), ModTime: aws.ToTime(head.LastModified)},
	}, nil
}

// List returns the committed files under prefix, in key order. Objects of
// the bucket whose names are not valid keys are left out.
func (s *Store) List(ctx context.Context, prefix string) ([]artifact.Info, error) {
	if err := artifactkey.CheckPrefix(prefix); err != nil {
		return nil, fmt.Errorf("s3store: list: %w", err)
	}
	var infos []artifact.Info
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(s.objectKey(prefix)),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("s3store: list %q: %w", prefix, err)
		}
		for _, o := range page.Contents {
			key := strings.TrimPrefix(aws.ToString(o.Key), s.cfg.Prefix)
			if artifactkey.Check(key) != nil {
				continue
			}
			infos = append(infos, artifact.Info{Key: key, Size: aws.ToInt64(o.Size), ModTime: aws.ToTime(o.LastModified)})
		}
	}
	slices.SortFunc(infos, func(a, b artifact.Info) int { return strings.Compare(a.Key, b.Key) })
	return infos, nil
}

// PresignGet returns a URL that downloads key, as an attachment named
// filename, until expires (at most 7 days) has passed. It sends no
// request: the URL of a missing key answers 404 when used.
func (s *Store) PresignGet(ctx context.Context, key string, expires time.Duration, filename string) (string, error) {
	if err := artifactkey.Check(key); err != nil {
		return "", fmt.Errorf("s3store: presign: %w", err)
	}
	if expires <= 0 || expires > 7*24*time.Hour {
		return "", fmt.Errorf("s3store: presign %q: expiry %v: want more than 0 and at most 7 days", key, expires)
	}
	in := &s3.GetObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(s.objectKey(key))}
	if filename != "" {
		in.ResponseContentDisposition = aws.String(mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	}
	req, err := s3.NewPresignClient(s.client).PresignGetObject(ctx, in, s3.WithPresignExpires(expires))
	if err != nil {
		return "", fmt.Errorf("s3store: presign %q: %w", key, err)
	}
	return req.URL, nil
}

// isNotFound reports whether err is S3's answer for a missing object.
func isNotFound(err error) bool {
	if hasCode(err, "NoSuchBucket") {
		return false
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusNotFound {
		return true
	}
	return hasCode(err, "NoSuchKey", "NotFound")
}

// hasCode reports whether err is an S3 error with one of codes.
func hasCode(err error, codes ...string) bool {
	var api smithy.APIError
	return errors.As(err, &api) && slices.Contains(codes, api.ErrorCode())
}
