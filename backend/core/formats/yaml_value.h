#pragma once

// The YAML side of the readers: a yaml-cpp node with the interface of JsonValue (json_value.h),
// so that every field reader is written once for both formats. Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/result.h"

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace topodeck::object_reader {

class YamlValue {
public:
    using Where = YAML::Mark;

    explicit YamlValue(YAML::Node node) : m_node(std::move(node)) {}

    Where where() const { return m_node.Mark(); }
    // Positions are not worth tracking for YAML, which is read whole into a tree anyway.
    std::size_t bytesBefore(const Where&) const { return 0; }
    std::size_t bytesAfter(const Where&) const { return 0; }
    std::string locate(const Where& where) const;

    ValueType type() const {
        switch (m_node.Type()) {
        case YAML::NodeType::Undefined:
        case YAML::NodeType::Null:
            return ValueType::Null;
        case YAML::NodeType::Scalar:
            return ValueType::String;
        case YAML::NodeType::Sequence:
            return ValueType::Array;
        case YAML::NodeType::Map:
            return ValueType::Object;
        }
        return ValueType::Invalid;
    }

    // The scalar's text lives in the document tree, which outlives the reading.
    bool text(ValueType, std::string_view& out) const {
        out = m_node.Scalar();
        return true;
    }

    bool boolean(bool& out) const { return m_node.IsScalar() && YAML::convert<bool>::decode(m_node, out); }

    // apiVersion and kind, wherever they sit in the map.
    Status header(std::string_view& apiVersion, std::string_view& kind) const;

    template <class F> Status forEachField(F&& f) const {
        for (auto it = m_node.begin(); it != m_node.end(); ++it) {
            if (!it->first.IsScalar()) return Error{"a map key is not a string"};
            YamlValue child(it->second);
            if (Status s = f(std::string_view(it->first.Scalar()), child); !s) return s;
        }
        return {};
    }

    template <class F> Status forEachElement(F&& f) const {
        for (auto it = m_node.begin(); it != m_node.end(); ++it) {
            YamlValue child(*it);
            if (Status s = f(child); !s) return s;
        }
        return {};
    }

private:
    YAML::Node m_node;
};

} // namespace topodeck::object_reader
