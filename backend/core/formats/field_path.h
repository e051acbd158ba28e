#pragma once

// Where in a document a value sits, and the errors that name it: shared by every reader of
// Kubernetes objects and Slurm replies. Internal to backend/core.

#include "core/result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace topodeck::object_reader {

enum class ValueType { Null, Bool, Number, String, Array, Object, Invalid };

// "a string", "a map", ...: the type as an error message names it.
const char* describe(ValueType type);

// A field path such as spec.containers[0].resources.requests["cpu"], built only when an error
// needs it: the happy path of a 500,000-pod file must not allocate a string per field.
class Path {
public:
    Path() = default;
    Path field(std::string_view name) const { return Path(this, Kind::Field, name, 0); }
    Path key(std::string_view name) const { return Path(this, Kind::Key, name, 0); }
    Path index(std::size_t i) const { return Path(this, Kind::Index, {}, i); }
    // A map entry named as its name reads best: a plain identifier as a field ("...attributes.uuid"),
    // anything with '.' or '/' as a key ("...attributes["resource.kubernetes.io/pcieRoot"]"),
    // decided only when the text is built.
    Path entry(std::string_view name) const { return Path(this, Kind::Entry, name, 0); }

    std::string str() const;

private:
    enum class Kind { Root, Field, Key, Index, Entry };
    Path(const Path* parent, Kind kind, std::string_view text, std::size_t index)
        : m_parent(parent), m_kind(kind), m_text(text), m_index(index) {}
    void append(std::string& out) const;

    const Path* m_parent = nullptr;
    Kind m_kind = Kind::Root;
    std::string_view m_text;
    std::size_t m_index = 0;
};

// "<path>: expected <expected>, got <what it is>".
Error typeError(const Path& path, std::string_view expected, ValueType got);
// "<path> is missing".
Error missingError(const Path& path);

} // namespace topodeck::object_reader
