#pragma once

// CEL's grammar (cel-spec langdef.md "Syntax") by recursive descent, into ProgramData's nodes.
// Macros are expanded as cel-go expands them: has(e.f), e.all/exists/exists_one/filter(x, p),
// e.map(x, t), e.map(x, p, t) and cel.bind(v, init, body) (cel-go ext.Bindings). Chains of && and
// || become one n-ary node each. Even runs of '!' or '-' cancel out, and '-' before a number
// literal makes a negative literal, as cel-go's parser does.
//
// Refused with a message naming the construct: message construction (Foo{...}), optional syntax
// (a.?b, a[?b], [?x], {?k: v}), two-variable comprehensions, reserved words as identifiers.
// Recursion is bounded (kMaxRecursionDepth, as cel-go) and so is the depth of the tree
// (kMaxNestingDepth), so that no input can exhaust the stack here or in the evaluator.

#include "core/cel/cel_program.h"
#include "core/result.h"

#include <string_view>

namespace topodeck::cel {

// Parses `source` into `out` (nodes, names, constants, root). Errors read
// "<line>:<column>: Syntax error: ..." or "<line>:<column>: unsupported: ...".
Status parseExpression(std::string_view source, ProgramData& out);

} // namespace topodeck::cel
