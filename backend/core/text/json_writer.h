#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// How a JsonWriter spaces its output.
struct JsonStyle {
    int indent = 0;      // spaces per level in Block containers
    bool spaced = false; // ": " after keys and ", " between inline members, as people read it
};
inline constexpr JsonStyle kCompactJson{};
inline constexpr JsonStyle kReadableJson{2, true};

// Writes JSON into a string as it goes: every JSON document topodeck prints (show, plan,
// capacity, snapshots, exec-credential input). Each container is laid out Inline (on one line) or
// Block (each member on a line of its own, indented by JsonStyle::indent spaces per level; with
// indent 0, flush left: one object per line). Strings are escaped by appendJsonString, so the
// output is valid UTF-8 whatever the input. The caller pairs its begin and end calls.
class JsonWriter {
public:
    enum class Layout { Inline, Block };

    explicit JsonWriter(std::string& out, JsonStyle style = kCompactJson) : m_out(out), m_style(style) {}

    JsonWriter& beginObject(Layout layout = Layout::Inline);
    JsonWriter& endObject() { return end('}'); }
    JsonWriter& beginArray(Layout layout = Layout::Inline);
    JsonWriter& endArray() { return end(']'); }

    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(bool flag);
    template <std::integral T>
    requires(!std::same_as<T, bool>) JsonWriter& value(T number) { return integer(static_cast<std::int64_t>(number)); }
    JsonWriter& null();
    // Text that already is JSON (a number as written, an object serialised elsewhere).
    JsonWriter& raw(std::string_view json);

    template <class T> JsonWriter& field(std::string_view name, const T& v) { return key(name).value(v); }
    // An inline array of strings.
    JsonWriter& stringArray(const std::vector<std::string>& values);

private:
    struct Frame {
        Layout layout;
        bool empty = true;
    };
    JsonWriter& integer(std::int64_t number);
    JsonWriter& begin(char bracket, Layout layout);
    JsonWriter& end(char bracket);
    // The separator, line break and indentation before a member (nothing right after a key).
    void beforeValue();
    void newLine(std::size_t depth);

    std::string& m_out;
    JsonStyle m_style;
    std::vector<Frame> m_frames;
    bool m_afterKey = false;
};

} // namespace topodeck
