#pragma once

#include <QWidget>

namespace topodeck {

// One line under the map saying what its colours and outlines mean.
class MapLegend : public QWidget {
    Q_OBJECT
public:
    explicit MapLegend(QWidget* parent = nullptr);

    // The ComputeDomain badge's entry, shown on a cluster that has ComputeDomains.
    void setComputeDomainsShown(bool shown);
    bool computeDomainsShown() const { return m_computeDomains; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    enum class Swatch { Used, Free, Unavailable, Mix, Nvlink, ComputeDomain, Selection };
    struct Entry {
        Swatch swatch;
        QString text;
    };
    QList<Entry> entries() const;
    int swatchSize() const;
    int swatchWidth(Swatch swatch) const;

    bool m_computeDomains = false;
};

} // namespace topodeck
