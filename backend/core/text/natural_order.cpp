#include "core/text/natural_order.h"

#include <cstddef>

namespace topodeck {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

bool naturalLess(std::string_view a, std::string_view b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            // Compare digit runs by value: skip leading zeros, then longer run wins, then lexically.
            std::size_t ai = i, bj = j;
            while (ai < a.size() && a[ai] == '0') ++ai;
            while (bj < b.size() && b[bj] == '0') ++bj;
            std::size_t ae = ai, be = bj;
            while (ae < a.size() && isDigit(a[ae])) ++ae;
            while (be < b.size() && isDigit(b[be])) ++be;
            if (ae - ai != be - bj) return ae - ai < be - bj;
            const auto cmp = a.substr(ai, ae - ai).compare(b.substr(bj, be - bj));
            if (cmp != 0) return cmp < 0;
            // Equal values: fewer leading zeros first, so the order stays strict.
            if (ai - i != bj - j) return ai - i < bj - j;
            i = ae;
            j = be;
        } else {
            if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

} // namespace topodeck
