// Package jsonscan reads JSON token by token for the structural pass of
// the export task service's request decoding, which reports every problem
// of a body with its JSON Pointer. Start with [Fast], a tokenizer that
// gives exactly what json.Decoder gives on well-formed input, more
// cheaply, and refuses the rest (read it then with [NewDecoder]); both are
// a [Source]. [InvalidText] checks a string's bytes as they are in the
// body, [Apply] rewrites a body with [Edit]s, and [ExactNumbers] keeps the
// text of the numbers of a free-form object.
//
// It knows nothing of the API's request shapes: package exporttask holds
// those and the problems' text.
package jsonscan
