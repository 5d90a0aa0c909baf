package bundle

import "strings"

// A refContext is the kind of OpenAPI object expected at a place in a
// document: it says which components section a $ref found there belongs
// to, and where to look for more $refs below it. "map:K" and "list:K" hold
// objects of kind K under any key or index; "" is a value taken literally
// (examples, defaults, enums, extensions), where a "$ref" key is data;
// "other" is any other value (info, servers, tags, ...), where a $ref is
// replaced by what it points to.
type refContext string

const (
	ctxLiteral    refContext = ""
	ctxOther      refContext = "other"
	ctxRoot       refContext = "root"
	ctxComponents refContext = "components"
	ctxPathItem   refContext = "pathItem"
	ctxOperation  refContext = "operation"
	ctxParameter  refContext = "parameter"
	ctxHeader     refContext = "header"
	ctxRequest    refContext = "requestBody"
	ctxResponse   refContext = "response"
	ctxMediaType  refContext = "mediaType"
	ctxEncoding   refContext = "encoding"
	ctxSchema     refContext = "schema"
	ctxExample    refContext = "example"
	ctxLink       refContext = "link"
	ctxCallback   refContext = "callback"
	ctxSecurity   refContext = "securityScheme"
)

func mapOf(k refContext) refContext  { return "map:" + k }
func listOf(k refContext) refContext { return "list:" + k }

// element returns the kind of the items of a "map:" or "list:" context.
func (c refContext) element() (refContext, bool) {
	if rest, ok := strings.CutPrefix(string(c), "map:"); ok {
		return refContext(rest), true
	}
	if rest, ok := strings.CutPrefix(string(c), "list:"); ok {
		return refContext(rest), true
	}
	return "", false
}

// child returns the context of the value at key inside an object of
// context c.
func (c refContext) child(key string) refContext {
	if el, ok := c.element(); ok {
		return el
	}
	if strings.HasPrefix(key, "x-") {
		return ctxLiteral
	}
	switch key {
	case "example", "default", "enum", "const":
		return ctxLiteral
	}
	switch c {
	case ctxExample:
		return ctxLiteral // summary, description, value, externalValue
	case ctxLink:
		if key != "server" {
			return ctxLiteral // operationRef, parameters, requestBody: expressions and values
		}
	case ctxRoot:
		switch key {
		case "paths", "webhooks":
			return mapOf(ctxPathItem)
		case "components":
			return ctxComponents
		case "definitions": // Swagger 2.0
			return mapOf(ctxSchema)
		case "parameters":
			return mapOf(ctxParameter)
		case "responses":
			return mapOf(ctxResponse)
		}
	case ctxComponents:
		for _, sec := range componentSections() {
			if sec.name == key {
				return mapOf(sec.kind)
			}
		}
	case ctxPathItem:
		switch key {
		case "get", "put", "post", "delete", "options", "head", "patch", "trace", "query":
			return ctxOperation
		case "additionalOperations": // OpenAPI 3.2
			return mapOf(ctxOperation)
		case "parameters":
			return listOf(ctxParameter)
		}
	case ctxOperation:
		switch key {
		case "parameters":
			return listOf(ctxParameter)
		case "requestBody":
			return ctxRequest
		case "responses":
			return mapOf(ctxResponse)
		case "callbacks":
			return mapOf(ctxCallback)
		}
	case ctxCallback:
		return ctxPathItem
	case ctxParameter, ctxHeader:
		switch key {
		case "schema":
			return ctxSchema
		case "content":
			return mapOf(ctxMediaType)
		case "examples":
			return mapOf(ctxExample)
		}
	case ctxRequest:
		if key == "content" {
			return mapOf(ctxMediaType)
		}
	case ctxResponse:
		switch key {
		case "headers":
			return mapOf(ctxHeader)
		case "content":
			return mapOf(ctxMediaType)
		case "links":
			return mapOf(ctxLink)
		case "schema": // Swagger 2.0
			return ctxSchema
		case "examples": // Swagger 2.0: example values by media type
			return ctxLiteral
		}
	case ctxMediaType:
		switch key {
		case "schema":
			return ctxSchema
		case "examples":
			return mapOf(ctxExample)
		case "encoding":
			return mapOf(ctxEncoding)
		}
	case ctxEncoding:
		if key == "headers" {
			return mapOf(ctxHeader)
		}
	case ctxSchema:
		switch key {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			return mapOf(ctxSchema)
		case "items", "additionalItems", "additionalProperties", "not", "contains", "propertyNames",
			"if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
			return ctxSchema
		case "allOf", "anyOf", "oneOf", "prefixItems":
			return listOf(ctxSchema)
		case "examples": // JSON Schema: a list of example values
			return ctxLiteral
		}
	}
	return ctxOther
}

// componentSections are OpenAPI 3's components sections, each with the
// kind of its entries.
func componentSections() []struct {
	name string
	kind refContext
} {
	return []struct {
		name string
		kind refContext
	}{
		{"schemas", ctxSchema}, {"responses", ctxResponse}, {"parameters", ctxParameter}, {"examples", ctxExample},
		{"requestBodies", ctxRequest}, {"headers", ctxHeader}, {"securitySchemes", ctxSecurity}, {"links", ctxLink},
		{"callbacks", ctxCallback}, {"pathItems", ctxPathItem},
	}
}

// section returns where a referenced object of kind c goes in the bundled
// document ("components/schemas", or "definitions" in Swagger 2.0), or ""
// when it must be inlined: path items (OpenAPI 3.0 has no section for them)
// and every kind Swagger 2.0 cannot refer to.
func (c refContext) section(swagger2 bool) string {
	if swagger2 {
		switch c {
		case ctxSchema:
			return "definitions"
		case ctxParameter:
			return "parameters"
		case ctxResponse:
			return "responses"
		}
		return ""
	}
	for _, sec := range componentSections() {
		if sec.kind == c && c != ctxPathItem {
			return "components/" + sec.name
		}
	}
	return ""
}

// describe names what is expected at a place of context c, for errors:
// "a path item", "the items of a map of path items", ...
func (c refContext) describe() string {
	if el, ok := c.element(); ok {
		if strings.HasPrefix(string(c), "list:") {
			return "a list of " + string(el) + " objects"
		}
		return "a map of " + string(el) + " objects"
	}
	switch c {
	case ctxRoot:
		return "the OpenAPI document"
	case ctxOther:
		return "a value"
	}
	return "a " + string(c) + " object"
}
