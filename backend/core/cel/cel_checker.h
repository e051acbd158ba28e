#pragma once

// The type checker, run over a parsed program as cel-go's checker runs in Kubernetes' environment
// (k8s.io/dynamic-resource-allocation cel/compile.go, k8s.io/apiserver pkg/cel/environment):
//  - names resolve to comprehension and cel.bind variables or to `device`; anything else is an
//    "undeclared reference", a type denotation or a function this evaluator does not implement is
//    "unsupported: ..." naming it;
//  - device.driver, .attributes, .capacity and .allowMultipleAllocations are the only fields of
//    the device ("undefined field 'x'" otherwise), and device.attributes["<domain>"].<id> with
//    constant names becomes one direct lookup;
//  - calls resolve to the library's overloads; a call no overload accepts for the argument types
//    known statically fails as "found no matching overload for '_+_' applied to '(string, int)'".
//    Attribute values are of the dynamic type, so most checks of selectors happen at runtime;
//  - == and != need agreeing types (cel-go's homogeneous check), <, <=, >, >= compare numbers
//    across int, uint and double (CrossTypeNumericComparisons, on in Kubernetes), list and map
//    literals are homogeneous (HomogeneousAggregateLiterals, on in Kubernetes);
//  - regular expressions with constant patterns are compiled now (an invalid one is a compile
//    error, as ValidateRegexLiterals makes it), constant list and map literals and quantity()
//    and semver() of constants are evaluated once;
//  - a selector must evaluate to bool or the dynamic type ("must evaluate to bool or the unknown
//    type, not int", Kubernetes' words).

#include "core/cel/cel_program.h"
#include "core/result.h"

namespace topodeck::cel {

struct CheckOptions {
    bool requireBool = true;
};

// Resolves `program` in place; errors read "<line>:<column>: <message>".
Status checkProgram(ProgramData& program, const CheckOptions& options);

} // namespace topodeck::cel
