#include "core/formats/yaml_value.h"

namespace topodeck::object_reader {

std::string YamlValue::locate(const Where& where) const {
    if (where.is_null()) return {};
    return ':' + std::to_string(where.line + 1) + ':' + std::to_string(where.column + 1);
}

Status YamlValue::header(std::string_view& apiVersion, std::string_view& kind) const {
    for (auto it = m_node.begin(); it != m_node.end(); ++it) {
        const std::string& key = it->first.Scalar();
        const bool isKind = key == "kind";
        if (!isKind && key != "apiVersion") continue;
        if (!it->second.IsScalar()) return typeError(Path().field(key), "a string", YamlValue(it->second).type());
        (isKind ? kind : apiVersion) = it->second.Scalar();
    }
    return {};
}

} // namespace topodeck::object_reader
