// Draws Stampede's icon (as desktop/stampede.svg draws it) into PNG files of
// the hicolor sizes: makeicons OUTDIR writes OUTDIR/SIZExSIZE/apps/stampede.png.
#include <QDir>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fputs("usage: makeicons OUTDIR\n", stderr);
        return 2;
    }
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(size / 256.0, size / 256.0);
        QLinearGradient tile(0, 0, 0, 256);
        tile.setColorAt(0, QColor(0x2c, 0x3e, 0x66));
        tile.setColorAt(1, QColor(0x1a, 0x24, 0x40));
        p.setPen(Qt::NoPen);
        p.setBrush(tile);
        p.drawRoundedRect(QRectF(8, 8, 240, 240), 44, 44);
        const QColor bars[] = {QColor(0xf3, 0x9c, 0x12), QColor(0xe6, 0x7e, 0x22), QColor(0xd3, 0x54, 0x00)};
        const QRectF rects[] = {{44, 148, 36, 64}, {98, 112, 36, 100}, {152, 68, 36, 144}};
        for (int i = 0; i < 3; ++i) {
            p.setBrush(bars[i]);
            p.drawRoundedRect(rects[i], 6, 6);
        }
        QPen line(QColor(0xec, 0xf0, 0xf1), 12, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        p.setPen(line);
        p.setBrush(Qt::NoBrush);
        const QPointF points[] = {{44, 120}, {98, 88}, {152, 50}, {212, 36}};
        p.drawPolyline(points, 4);
        p.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(QString::fromLocal8Bit(argv[1])).arg(size);
        if (!QDir().mkpath(dir) || !image.save(dir + QStringLiteral("/stampede.png"))) {
            std::fprintf(stderr, "makeicons: cannot write %s\n", qPrintable(dir));
            return 1;
        }
    }
    return 0;
}
