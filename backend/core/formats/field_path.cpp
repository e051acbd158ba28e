#include "core/formats/field_path.h"

#include "core/text/text_format.h"

#include <utility>

namespace topodeck::object_reader {

const char* describe(ValueType type) {
    switch (type) {
    case ValueType::Null:
        return "null";
    case ValueType::Bool:
        return "a boolean";
    case ValueType::Number:
        return "a number";
    case ValueType::String:
        return "a string";
    case ValueType::Array:
        return "a list";
    case ValueType::Object:
        return "a map";
    case ValueType::Invalid:
        break;
    }
    return "invalid input";
}

std::string Path::str() const {
    std::string out;
    append(out);
    return out;
}

void Path::append(std::string& out) const {
    if (m_parent) m_parent->append(out);
    Kind kind = m_kind;
    if (kind == Kind::Entry) kind = m_text.find_first_of("./") == std::string_view::npos ? Kind::Field : Kind::Key;
    switch (kind) {
    case Kind::Root:
    case Kind::Entry:
        break;
    case Kind::Field:
        if (!out.empty()) out += '.';
        out += m_text;
        break;
    case Kind::Key:
        out += "[\"";
        out += visibleText(m_text); // a key from the input, shown in messages
        out += "\"]";
        break;
    case Kind::Index:
        out += '[';
        out += std::to_string(m_index);
        out += ']';
        break;
    }
}

Error typeError(const Path& path, std::string_view expected, ValueType got) {
    std::string message = path.str();
    message += ": expected ";
    message += expected;
    message += ", got ";
    message += describe(got);
    return Error{std::move(message)};
}

Error missingError(const Path& path) {
    return Error{path.str() + " is missing"};
}

} // namespace topodeck::object_reader
