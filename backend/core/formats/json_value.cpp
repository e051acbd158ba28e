#include "core/formats/json_value.h"

#include <utility>

namespace topodeck::object_reader {

Error JsonContext::fail(simdjson::error_code code) {
    if (error == simdjson::SUCCESS) {
        error = code;
        const char* at = nullptr;
        if (document && document->current_location().get(at) == simdjson::SUCCESS) errorAt = at;
    }
    return Error{"invalid JSON"};
}

Error JsonContext::syntaxError(std::string_view source) const {
    std::string message = std::string(source) + locate(errorAt) + ": invalid JSON: ";
    // Every type is checked before a value is read, so simdjson's "wrong type" means a misspelt
    // literal such as "tru".
    message += error == simdjson::INCORRECT_TYPE ? "malformed value" : simdjson::error_message(error);
    return Error{std::move(message)};
}

std::string JsonContext::locate(const char* at) const {
    if (!at || !begin) return {};
    const char* lineStart = begin;
    std::size_t line = 1;
    for (const char* p = begin; p < at; ++p) {
        if (*p == '\n') {
            ++line;
            lineStart = p + 1;
        }
    }
    return ':' + std::to_string(line) + ':' + std::to_string(at - lineStart + 1);
}

Status JsonValue::header(std::string_view& apiVersion, std::string_view& kind) {
    if (Status s = openObject(); !s) return s;
    bool haveApiVersion = false;
    bool haveKind = false;
    for (auto result : m_object) {
        sj::field field;
        if (auto error = std::move(result).get(field)) return m_context->fail(error);
        const bool isApiVersion = field.key() == "apiVersion";
        const bool isKind = !isApiVersion && field.key() == "kind";
        if (!isApiVersion && !isKind) continue;
        JsonValue value(field.value(), *m_context);
        const ValueType type = value.type();
        if (type == ValueType::Invalid) return Error{"invalid JSON"};
        if (type != ValueType::String) return typeError(Path().field(isKind ? "kind" : "apiVersion"), "a string", type);
        if (!value.text(type, isKind ? kind : apiVersion)) return Error{"invalid JSON"};
        (isKind ? haveKind : haveApiVersion) = true;
        if (haveKind && haveApiVersion) break;
    }
    if (auto error = m_object.reset().error()) return m_context->fail(error);
    m_skipHeader = true;
    return {};
}

Status walkJsonDocument(sj::parser& parser, simdjson::padded_string_view input, std::string_view source,
                        const std::function<Status(JsonValue&)>& readRoot) {
    JsonContext context;
    context.begin = input.data();
    context.end = input.data() + input.size();
    sj::document document;
    if (auto error = parser.iterate(input).get(document)) {
        context.error = error;
        return context.syntaxError(source);
    }
    context.document = &document;
    sj::value rootValue;
    if (auto error = document.get_value().get(rootValue)) {
        if (error == simdjson::SCALAR_DOCUMENT_AS_VALUE)
            return Error{std::string(source) + ": expected a Kubernetes object or List"};
        context.fail(error);
        return context.syntaxError(source);
    }
    JsonValue root(rootValue, context);
    Status status = readRoot(root);
    if (context.error != simdjson::SUCCESS) return context.syntaxError(source);
    if (!status) return status;
    // On-demand parsing stops at the end of the root value; anything after it is an error.
    const char* rest = nullptr;
    if (document.current_location().get(rest) == simdjson::SUCCESS) {
        while (rest < context.end && (*rest == ' ' || *rest == '\t' || *rest == '\n' || *rest == '\r')) ++rest;
        if (rest < context.end)
            return Error{std::string(source) + context.locate(rest) +
                         ": invalid JSON: unexpected content after the top-level value"};
    }
    return {};
}

} // namespace topodeck::object_reader
