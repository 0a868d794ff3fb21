"""Frames in, dice faces out: camera sources, settle detection, detection, classification.

Knows nothing of the companion, firmware_bridge or web packages. The main entry points:

* :class:`vision.reader.DiceReader` reads a frame into a :class:`vision.reading.TrayRead`
  (per die: face, confidence, uncertain flag, box, evidence crop);
* :func:`vision.imagefile.read_file` decodes a photo file, its size checked first (a very
  large JPEG decoded reduced, a decompression bomb refused);
* :func:`vision.sources.open_source` opens ``camera:0``, ``picamera``, ``images:DIR``,
  ``video:FILE`` or an image;
* :class:`vision.settle.SettleDetector` and :class:`vision.rolls.RollTracker` (and
  :func:`vision.watcher.watch`) turn a stream into one read per roll;
* :func:`vision.calibration.calibrate` learns an empty tray and reports image quality;
* :func:`vision.enroll.enroll` builds a :class:`vision.enrollment.Profile` of custom
  faces; :mod:`vision.synthetic` draws SeaFall symbol dice for tests.
"""
