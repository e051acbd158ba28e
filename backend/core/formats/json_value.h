#pragma once

// The JSON side of the readers: a value of simdjson's on-demand parser (values are consumed
// once, in document order, and no DOM is built), with the interface the field readers are
// written against (see yaml_value.h for the YAML side). Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/result.h"

#include <simdjson.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace topodeck::object_reader {

namespace sj = simdjson::ondemand;

// Shared by every JsonValue of one document: the first syntax error and where it happened.
struct JsonContext {
    const char* begin = nullptr;
    const char* end = nullptr;
    sj::document* document = nullptr;
    simdjson::error_code error = simdjson::SUCCESS;
    const char* errorAt = nullptr;

    // Records the first error and where it happened. The message is replaced by the syntax
    // error at the top, so any text does here.
    Error fail(simdjson::error_code code);
    // "<source>:<line>:<column>: invalid JSON: <what>" for the first syntax error.
    Error syntaxError(std::string_view source) const;
    // ":<line>:<column>" of a position in the input, or "" when unknown.
    std::string locate(const char* at) const;
};

class JsonValue {
public:
    using Where = const char*;

    JsonValue(sj::value value, JsonContext& context) : m_value(value), m_context(&context) {}

    Where where() {
        const char* at = nullptr;
        if (m_value.current_location().get(at) != simdjson::SUCCESS) return nullptr;
        return at;
    }
    std::string locate(Where where) const { return m_context->locate(where); }
    // How far into the input `where` is, and how much input follows it.
    std::size_t bytesBefore(Where where) const {
        return where ? static_cast<std::size_t>(where - m_context->begin) : 0;
    }
    std::size_t bytesAfter(Where where) const { return where ? static_cast<std::size_t>(m_context->end - where) : 0; }

    ValueType type() {
        sj::json_type type;
        if (auto error = m_value.type().get(type)) {
            m_context->fail(error);
            return ValueType::Invalid;
        }
        switch (type) {
        case sj::json_type::array:
            return ValueType::Array;
        case sj::json_type::object:
            return ValueType::Object;
        case sj::json_type::number:
            return ValueType::Number;
        case sj::json_type::string:
            return ValueType::String;
        case sj::json_type::boolean:
            return ValueType::Bool;
        case sj::json_type::null:
            return ValueType::Null;
        }
        return ValueType::Invalid;
    }

    // Text of a scalar of the given type; numbers and booleans as written (quantities may be
    // unquoted numbers in JSON).
    bool text(ValueType type, std::string_view& out) {
        if (type == ValueType::String) {
            // A string without escapes is its own text: point into the input rather than copy
            // every value into simdjson's string buffer (hundreds of MB at cluster size).
            if (stringInPlace(m_value.raw_json_token(), out)) return true;
            if (auto error = m_value.get_string().get(out)) {
                m_context->fail(error);
                return false;
            }
            return true;
        }
        std::string_view token = m_value.raw_json_token();
        while (!token.empty() &&
               (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r'))
            token.remove_suffix(1);
        out = token;
        return true;
    }

    // False when the value is not a boolean.
    bool boolean(bool& out) {
        if (type() != ValueType::Bool) return false;
        if (auto error = m_value.get_bool().get(out)) {
            m_context->fail(error);
            return false;
        }
        return true;
    }

    // Reads apiVersion and kind first, wherever they sit, then rewinds so that forEachField()
    // sees the other fields. kubectl prints them first, so this is usually two fields' work.
    Status header(std::string_view& apiVersion, std::string_view& kind);

    template <class F> Status forEachField(F&& f) {
        if (Status s = openObject(); !s) return s;
        for (auto result : m_object) {
            sj::field field;
            if (auto error = std::move(result).get(field)) return m_context->fail(error);
            std::string_view key;
            if (!inPlace(field.key().raw(), key)) {
                if (auto error = field.unescaped_key().get(key)) return m_context->fail(error);
            }
            // Already read by header(); a string may be unescaped only once.
            if (m_skipHeader && (key == "apiVersion" || key == "kind")) continue;
            JsonValue child(field.value(), *m_context);
            if (Status s = f(key, child); !s) return s;
        }
        return {};
    }

    template <class F> Status forEachElement(F&& f) {
        sj::array array;
        if (auto error = m_value.get_array().get(array)) return m_context->fail(error);
        for (auto result : array) {
            sj::value element;
            if (auto error = std::move(result).get(element)) return m_context->fail(error);
            JsonValue child(element, *m_context);
            if (Status s = f(child); !s) return s;
        }
        return {};
    }

private:
    // A string value's characters, when there is no escape among them. Its raw token runs from
    // the opening quote to the next structural character, so the closing quote is its last
    // character but for white space: no character-by-character search for it.
    static bool stringInPlace(std::string_view token, std::string_view& out) {
        while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                                  token.back() == '\t'))
            token.remove_suffix(1);
        if (token.size() < 2 || token.front() != '"' || token.back() != '"') return false;
        token = token.substr(1, token.size() - 2);
        if (std::memchr(token.data(), '\\', token.size()) != nullptr) return false;
        out = token;
        return true;
    }

    // The characters from `start` up to the closing quote, when there is no escape among them
    // (the document was validated, so a quote ends the string).
    static bool inPlace(const char* start, std::string_view& out) {
        const char* end = start;
        while (*end != '"' && *end != '\\') ++end;
        if (*end != '"') return false;
        out = std::string_view(start, static_cast<std::size_t>(end - start));
        return true;
    }

    Status openObject() {
        if (m_haveObject) return {};
        if (auto error = m_value.get_object().get(m_object)) return m_context->fail(error);
        m_haveObject = true;
        return {};
    }

    sj::value m_value;
    JsonContext* m_context;
    sj::object m_object;
    bool m_haveObject = false;
    bool m_skipHeader = false;
};

// Parses one JSON document and hands its root to readRoot. Syntax errors (also those found while
// readRoot walks the document) and content after the root value become errors naming source,
// line and column.
Status walkJsonDocument(sj::parser& parser, simdjson::padded_string_view input, std::string_view source,
                        const std::function<Status(JsonValue&)>& readRoot);

} // namespace topodeck::object_reader
