#pragma once

// The evaluator: walks a checked ProgramData for one device, with CEL's semantics
// (cel-spec langdef.md "Evaluation"):
//  - && and || are commutative: a false (true) operand decides whatever errors the others give;
//    otherwise the first error wins; `?:` evaluates only the branch it takes;
//  - all/exists absorb errors as && and || do; exists_one, map and filter propagate them;
//  - functions are strict: an erroneous argument is the call's result;
//  - the cost of the evaluation is counted as cel-go counts it (identifiers and field selections
//    1, calls by cel-go's runtime cost model, list/map construction 10/30, comprehensions per
//    step) plus, for deep comparisons and copies, the elements they visit; past the program's
//    limit the evaluation stops with "operation cancelled: actual cost limit exceeded", which no
//    operator absorbs.
// Nothing is allocated for selectors that read attributes and compare scalars.

#include "core/cel/cel_program.h"

namespace topodeck::cel {

struct EvalOutcome {
    Value value; // the result, or an error (Kind::Error); may borrow from the device and program
    std::uint64_t cost = 0;
};

EvalOutcome evaluateProgram(const ProgramData& program, const DeviceView& device);

} // namespace topodeck::cel
