# estimate kind: fixed-length crops of a mono waveform librosa loads (float32, one channel), of a
# literal sample count, of a sample rate times seconds, and of a length kept on self
import random

import librosa
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __init__(self, paths, segment=32000):
        self.paths = paths
        self.segment = segment

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        audio, _ = librosa.load(self.paths[index], sr=16000)
        start = random.randint(0, len(audio) - self.segment)
        return audio[start:start + self.segment]


class Literal(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        wave, sr = librosa.load("clip.wav", sr=22050, mono=True)
        return wave[index:index + 22050 * 3], index


def make(paths=("a.wav",)):
    return DataLoader(Clips(list(paths)), batch_size=16, num_workers=4)


def make_literal():
    return DataLoader(Literal(), batch_size=8, num_workers=2)
