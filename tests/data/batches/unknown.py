# negatives: every loader's batch bytes must stay unknown (never guess)
import albumentations as A
import cv2
import librosa
import numpy as np
import torch
from albumentations.pytorch import ToTensorV2
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class AnyMode(Dataset):
    def __init__(self, files, transform=None):
        self.files = files
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return self.transform(Image.open(self.files[i]))  # no convert(): channels unknown


class Padded(Dataset):
    def __init__(self, texts, tokenizer):
        self.texts, self.tokenizer = texts, tokenizer

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        enc = self.tokenizer(self.texts[i], padding=True, truncation=True, return_tensors="pt")  # longest: varies
        return enc["input_ids"].squeeze(0)


class Whole(Dataset):
    def __init__(self, texts, tokenizer):
        self.texts, self.tokenizer = texts, tokenizer

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return self.tokenizer(self.texts[i], padding="max_length", max_length=64)  # which fields?


class Spans(Dataset):
    def __init__(self, path, starts, ends):
        self.data = np.memmap(path, dtype=np.uint16, mode="r")
        self.starts, self.ends = starts, ends

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, i):
        return torch.from_numpy(self.data[self.starts[i]:self.ends[i]].astype(np.int64))  # variable length


class Blocks(Dataset):
    def __init__(self, path, block_size):
        self.data = np.memmap(path, dtype=np.uint16, mode="r")
        self.block_size = block_size

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i:i + self.block_size].astype(np.int64))


class Scans(Dataset):
    def __init__(self, paths, transform):
        self.paths, self.transform = paths, transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = cv2.cvtColor(cv2.imread(self.paths[i]), cv2.COLOR_BGR2RGB)
        return self.transform(image=image)["image"]


def build(block_size):
    return DataLoader(Blocks("train.bin", block_size), batch_size=4, num_workers=2)  # block_size: a parameter


smaller_edge = transforms.Compose([transforms.Resize(256), transforms.ToTensor()])  # the other edge varies
b = DataLoader(AnyMode(["a.jpg"], transforms.Compose([transforms.CenterCrop(224), transforms.ToTensor()])), batch_size=8, num_workers=2)
c = DataLoader(Padded(["x"], None), batch_size=8, num_workers=2)
d = DataLoader(Whole(["x"], None), batch_size=8, num_workers=2)
e = DataLoader(Spans("train.bin", [0], [10]), batch_size=8, num_workers=2)
f = DataLoader(AnyMode(["a.jpg"], smaller_edge), batch_size=8, num_workers=2)
g = DataLoader(AnyMode(["a.jpg"]), batch_size=8, num_workers=2)
h = DataLoader(Scans(["a.png"], A.Compose([A.Resize(224, 224), ToTensorV2()])), batch_size=8, num_workers=2)  # dtype: the image's
i = DataLoader(Scans(["a.png"], A.Compose([A.LongestMaxSize(256), A.Normalize(), ToTensorV2()])), batch_size=8, num_workers=2)  # size varies


def pad_to_longest(batch):
    return torch.nn.utils.rnn.pad_sequence(batch, batch_first=True)


j = DataLoader(Blocks("train.bin", 128), batch_size=8, num_workers=2, collate_fn=pad_to_longest)  # its own batches


class Untruncated(Dataset):
    def __init__(self, texts, tokenizer):
        self.texts, self.tokenizer = texts, tokenizer

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        enc = self.tokenizer(self.texts[i], padding="max_length", max_length=64, return_tensors="pt")  # longer texts stay longer
        return enc["input_ids"].squeeze(0)


class Windows(Dataset):
    def __init__(self, path, window=256):
        self.data = np.memmap(path, dtype=np.uint16, mode="r")
        self.window = window

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i:i + self.window].astype(np.int64))


def windows(size, options):
    k = DataLoader(Untruncated(["x"], None), batch_size=8, num_workers=2)
    m = DataLoader(Windows("train.bin", window=size), batch_size=8, num_workers=2)  # not the default 256
    n = DataLoader(Windows("train.bin", **options), batch_size=8, num_workers=2)  # window may be in options
    return k, m, n


class Stereo(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        wave, sr = librosa.load("clip.wav", sr=16000, mono=False)  # the file's channels
        return wave[i:i + 16000]


class WholeClip(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        wave, sr = librosa.load("clip.wav", sr=16000)
        return wave[i:]  # as long as the file


def audio():
    return (
        DataLoader(Stereo(), batch_size=8, num_workers=2),
        DataLoader(WholeClip(), batch_size=1, num_workers=2),
    )


# albumentations pipelines built in __init__ and numpy arrays: unknown whenever a part is
class Rescaled(Dataset):
    """No crop after SmallestMaxSize: the other edge is the image's."""

    def __init__(self, paths, size=256):
        self.paths = paths
        self.preprocessor = A.Compose([A.SmallestMaxSize(max_size=size)])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = np.array(Image.open(self.paths[i]).convert("RGB"))
        return (self.preprocessor(image=image)["image"] / 127.5 - 1.0).astype(np.float32)


class AnyModeCrop(Dataset):
    """Image.open without convert or a mode check: the channels are the file's."""

    def __init__(self, paths, size=256):
        self.paths = paths
        self.cropper = A.CenterCrop(height=size, width=size)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = np.array(Image.open(self.paths[i]))
        return self.cropper(image=image)["image"]


class SometimesCropped(Dataset):
    """A crop applied with p=0.5, a pipeline that is a lambda on another path, an int64-or-int32
    ``astype(int)``: none is a fixed size."""

    def __init__(self, paths, size=256, crop=True):
        self.paths = paths
        self.half = A.Compose([A.RandomCrop(size, size, p=0.5)])
        if crop:
            self.preprocessor = A.CenterCrop(height=size, width=size)
        else:
            self.preprocessor = lambda **kwargs: kwargs
        self.cropper = A.CenterCrop(height=size, width=size)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = Image.open(self.paths[i])
        if not image.mode == "RGB":
            image = image.convert("RGB")
        image = np.array(image)
        example = {}
        example["half"] = self.half(image=image)["image"]
        example["either"] = self.preprocessor(image=image)["image"]
        example["ints"] = self.cropper(image=image)["image"].astype(int)
        return example


class Unsized(Dataset):
    """A crop size kept from a value the construction does not fix."""

    def __init__(self, paths, size):
        self.paths = paths
        self.cropper = A.RandomCrop(height=size, width=size)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = np.array(Image.open(self.paths[i]).convert("RGB"))
        return self.cropper(image=image)["image"] / 255.0


class FilledLater(Dataset):
    """A dict filled in a loop: its keys are not known."""

    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels
        self.cropper = A.RandomCrop(height=64, width=64)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        example = dict()
        image = np.array(Image.open(self.paths[i]).convert("RGB"))
        example["image"] = self.cropper(image=image)["image"]
        for k in self.labels:
            example[k] = self.labels[k][i]
        return example


k = DataLoader(Rescaled(["a.png"]), batch_size=8, num_workers=2)
l = DataLoader(AnyModeCrop(["a.png"]), batch_size=8, num_workers=2)
m = DataLoader(SometimesCropped(["a.png"]), batch_size=8, num_workers=2)
n = DataLoader(Unsized(["a.png"], size=int(input())), batch_size=8, num_workers=2)
o = DataLoader(FilledLater(["a.png"], {"y": [0]}), batch_size=8, num_workers=2)


class CroppedBase(Dataset):
    def __init__(self, paths, size=64):
        self.paths = paths
        self.cropper = A.CenterCrop(height=size, width=size)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.cropper(image=np.array(Image.open(self.paths[i]).convert("RGB")))["image"]


class Rescaling(CroppedBase):
    """Its own __init__ replaces the base's crop with a resize of the image's own proportions."""

    def __init__(self, paths):
        super().__init__(paths)
        self.cropper = A.SmallestMaxSize(max_size=32)


p = DataLoader(Rescaling(["a.png"]), batch_size=8, num_workers=2)


class CroppedToo(CroppedBase):
    """No __init__ of its own: its arguments are CroppedBase's (size=32, not the default 64)."""


q = DataLoader(CroppedToo(["a.png"], size=32), batch_size=8, num_workers=2)


class Blocks(Dataset):
    def __init__(self, n=64):
        self.n = n

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.zeros(self.n)


class SameBlocks(Blocks):
    """No __init__ of its own: SameBlocks(n=32) is 32 floats, not Blocks's default 64."""


class RenamedBlocks(Blocks):
    """Its own signature: RenamedBlocks(50) is 50,000 floats."""

    def __init__(self, length):
        super().__init__(n=length * 1000)


r = DataLoader(SameBlocks(n=32), batch_size=8, num_workers=2)
s = DataLoader(RenamedBlocks(50), batch_size=8, num_workers=2)


class Replaced(Dataset):
    """Element writes keep only an array's shape: a list display written into holds what is
    written (``parts[0] = self.images[i]``, any size), and a name written into after a second
    binding is not read either."""

    def __init__(self, images):
        self.images = images

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        parts = [np.zeros((3, 8, 8), dtype=np.float32)]
        parts[0] = self.images[i]
        return parts


class Rebound(Replaced):
    def __getitem__(self, i):
        data = np.zeros((3, 8, 8), dtype=np.float32)
        if i % 2:
            data = self.images[i]
        data[0] = 1
        return data


t = DataLoader(Replaced([np.zeros((3, 512, 512))]), batch_size=8, num_workers=2)
u = DataLoader(Rebound([np.zeros((3, 512, 512))]), batch_size=8, num_workers=2)
