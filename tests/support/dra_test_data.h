#pragma once
// The DRA fixtures of tests/data/dra, as the unit tests read them.

#include "core/formats/snapshot_reader.h"

#include <QtGlobal>

#include <string>
#include <utility>

namespace topodeck::testing {

inline std::string draDataPath(const std::string& name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/dra/" + name;
}

// The fixture read as a snapshot; a fixture that does not read ends the test program (a broken fixture).
inline Snapshot readDraData(const std::string& name) {
    Result<Snapshot> result = readSnapshotFile(draDataPath(name));
    if (!result) qFatal("%s", result.error().message.c_str());
    return std::move(result).value();
}

} // namespace topodeck::testing
