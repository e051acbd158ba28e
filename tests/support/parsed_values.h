#pragma once
// Quantities and versions written as text in tests; a text that does not parse stops the test.

#include "core/values/quantity.h"
#include "core/values/semver.h"

#include <QtGlobal>

namespace topodeck::testing {

inline Quantity qty(const char* text) {
    auto result = Quantity::parse(text);
    if (!result) qFatal("bad quantity %s", text);
    return *result;
}

inline Version ver(const char* text) {
    auto result = Version::parse(text);
    if (!result) qFatal("bad version %s", text);
    return *result;
}

} // namespace topodeck::testing
